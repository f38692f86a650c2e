import type { UnitOfWork } from "@petri/events";
import type { Clock, Principal } from "@petri/service-kit";
import { updateExperiment } from "../db/experiments.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import type { ExperimentsDb } from "../db/schema.js";
import { authorize } from "../domain/authorization.js";
import { cancellationSettlement } from "../domain/lifecycle/cancellation.js";
import { assertCan, transition } from "../domain/lifecycle/transitions.js";
import { REASON_MAX_LENGTH, requiredText } from "../domain/text.js";
import { cancelledChanges } from "./cancel-experiment.js";
import { loadVisible } from "./experiment-access.js";
import { recordCancelled } from "./experiment-events.js";

/**
 * Staff reject a request in pending_review, with a reason (1..1000 characters): it is
 * cancelled with a full refund of the hold, and ExperimentCancelled is recorded.
 */
export function makeRejectReview(deps: { clock: Clock; unitOfWork: UnitOfWork<ExperimentsDb> }) {
  return async function rejectReview(
    principal: Principal,
    input: { experimentId: string; reason: string },
  ): Promise<ExperimentRecord> {
    authorize(principal, "staff");
    const reason = requiredText("reason", input.reason, REASON_MAX_LENGTH);
    const now = deps.clock.now();
    const row = await deps.unitOfWork.run(async (trx) => {
      const current = await loadVisible(trx, principal, input.experimentId, { lock: true });
      assertCan("reject_review", current.status);
      const settlement = cancellationSettlement(current.status, current.hold_cents);
      const updated = await updateExperiment(trx, current, {
        status: transition("reject_review", current.status),
        reviewed_by: principal.accountId,
        reviewed_at: now,
        ...cancelledChanges(settlement, reason, principal, now),
      });
      const record = await loadRecord(trx, updated);
      await recordCancelled(trx, record, settlement, now);
      return record;
    });
    return row;
  };
}
