import type { UnitOfWork } from "@petri/events";
import type { Clock, Principal } from "@petri/service-kit";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import { updateExperiment } from "../db/experiments.js";
import type { ExperimentsDb } from "../db/schema.js";
import { transition } from "../domain/lifecycle/transitions.js";
import { lockAssigned } from "./experiment-access.js";
import { recordStarted } from "./experiment-events.js";

/**
 * The assigned operator starts work: claimed -> in_progress, started_at set, ExperimentStarted
 * recorded (docs/api.md event "started"). The requester and staff get 403, anyone else 404; any
 * other status 409 invalid_state.
 */
export function makeStartExperiment(deps: { clock: Clock; unitOfWork: UnitOfWork<ExperimentsDb> }) {
  return async function startExperiment(
    principal: Principal,
    experimentId: string,
  ): Promise<ExperimentRecord> {
    const now = deps.clock.now();
    const record = await deps.unitOfWork.run(async (trx) => {
      const current = await lockAssigned(trx, principal, experimentId);
      const updated = await updateExperiment(trx, current, {
        status: transition("start", current.status),
        started_at: now,
        updated_at: now,
      });
      const started = await loadRecord(trx, updated);
      await recordStarted(trx, started, now);
      return started;
    });
    return record;
  };
}
