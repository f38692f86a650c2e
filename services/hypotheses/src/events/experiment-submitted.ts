/**
 * petri.experiments.submitted -> the link between an experiment created from a hypothesis
 * (Experiment.source_hypothesis_id) and that hypothesis: USED, counted once. Idempotent (the
 * link is keyed by both ids; the gateway may have recorded it already); an experiment whose
 * requester does not own the hypothesis, or a hypothesis this service does not know, is ignored.
 */
import type { ExperimentSubmitted } from "@petri/contracts/experiments";
import type { Logger } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findHypothesis, linkExperiment } from "../db/hypotheses.js";
import type { HypothesesDb } from "../db/schema.js";
import { recordHypothesisSaved } from "../app/hypothesis-events.js";

/** Only an experiment created from a hypothesis has anything to link (checked before any I/O). */
export function namesSourceHypothesis(event: ExperimentSubmitted): boolean {
  return (event.experiment?.sourceHypothesisId ?? "") !== "";
}

export async function applyExperimentSubmitted(
  trx: Kysely<HypothesesDb>,
  event: ExperimentSubmitted,
  now: Date,
  logger: Logger,
): Promise<void> {
  const experiment = event.experiment;
  if (!experiment || !namesSourceHypothesis(event)) return;
  const hypothesis = await findHypothesis(trx, experiment.sourceHypothesisId);
  if (!hypothesis || hypothesis.ownerAccountId !== experiment.requesterAccountId) {
    logger.warn(
      { experimentId: experiment.id, hypothesisId: experiment.sourceHypothesisId },
      "an experiment names a source hypothesis its requester does not own; ignored",
    );
    return;
  }
  const outcome = await linkExperiment(trx, hypothesis.id, experiment.id, now);
  if (outcome.linked) await recordHypothesisSaved(trx, outcome.hypothesis, now);
}
