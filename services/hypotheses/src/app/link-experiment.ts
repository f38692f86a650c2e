import { type Principal, ValidationError, isId } from "@petri/service-kit";
import { linkExperiment } from "../db/hypotheses.js";
import type { Hypothesis } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";
import { recordHypothesisSaved } from "./hypothesis-events.js";
import { ownedHypothesis } from "./owned-hypothesis.js";

/**
 * Records an experiment created from one of the caller's hypotheses (the last step of
 * to-experiment): USED, counted once however often it is recorded. The ExperimentSubmitted
 * consumer records the same link, so a gateway that fails after creating the experiment
 * loses nothing.
 */
export function makeLinkExperiment(deps: ChangingDeps) {
  return async function linkExperimentUseCase(
    principal: Principal,
    input: { hypothesisId: string; experimentId: string },
  ): Promise<Hypothesis> {
    if (!isId("exp", input.experimentId))
      throw new ValidationError("the experiment id is invalid", [
        { field: "experiment_id", code: "invalid_value", message: "not an experiment id" },
      ]);
    return deps.unitOfWork.run(async (trx) => {
      const hypothesis = await ownedHypothesis(trx, principal, input.hypothesisId);
      const now = deps.clock.now();
      const outcome = await linkExperiment(trx, hypothesis.id, input.experimentId, now);
      if (outcome.linked) await recordHypothesisSaved(trx, outcome.hypothesis, now);
      return outcome.hypothesis;
    });
  };
}
