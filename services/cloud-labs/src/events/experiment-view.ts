/**
 * Every experiments event that carries the experiment -> experiment_views (db/experiment-views.ts):
 * what POST /cloud-labs/experiments/{id}/translate reads instead of the experiment the gateway
 * used to relay. The event's experiment is the state after the change, its version the
 * aggregate's.
 */
import { EXPERIMENT_STATUS_NAME_BY_VALUE } from "@petri/contracts/vocabulary";
import type { Experiment } from "@petri/contracts/experiments";
import type { Kysely } from "kysely";
import { type ExperimentView, upsertExperimentView } from "../db/experiment-views.js";
import type { CloudLabsDb } from "../db/schema.js";

/** The view of `experiment`; undefined for a message without an id or a known status. */
export function experimentViewOf(experiment: Experiment | undefined): ExperimentView | undefined {
  if (!experiment || experiment.id === "") return undefined;
  const status = EXPERIMENT_STATUS_NAME_BY_VALUE.get(experiment.status);
  if (!status) return undefined;
  return {
    id: experiment.id,
    requesterAccountId: experiment.requesterAccountId,
    status,
    requestJson: experiment.requestJson,
    version: Number(experiment.version),
  };
}

export async function applyExperimentView(
  trx: Kysely<CloudLabsDb>,
  event: { experiment?: Experiment },
): Promise<void> {
  const view = experimentViewOf(event.experiment);
  if (view) await upsertExperimentView(trx, view);
}
