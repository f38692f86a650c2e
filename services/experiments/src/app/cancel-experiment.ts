import type { UnitOfWork } from "@petri/events";
import type { Clock, Principal } from "@petri/service-kit";
import { type ExperimentChanges, updateExperiment } from "../db/experiments.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import type { ExperimentsDb } from "../db/schema.js";
import { type CancellationSettlement, cancellationSettlement } from "../domain/lifecycle/cancellation.js";
import { transition } from "../domain/lifecycle/transitions.js";
import { REASON_MAX_LENGTH, requiredText } from "../domain/text.js";
import { lockOwned } from "./experiment-access.js";
import { recordCancelled } from "./experiment-events.js";

export interface CancelDeps {
  clock: Clock;
  unitOfWork: UnitOfWork<ExperimentsDb>;
}

/**
 * DELETE /experiments/{id}: the requester cancels with a reason (1..1000 characters). The
 * refund depends on the status (domain/lifecycle/cancellation.ts); terminal and
 * results-stage statuses are 409 invalid_state. Records ExperimentCancelled with the refund
 * and the operator's compensation (not for drafts, which hold nothing).
 */
export function makeCancelExperiment(deps: CancelDeps) {
  return async function cancelExperiment(
    principal: Principal,
    input: { experimentId: string; reason: string },
  ): Promise<ExperimentRecord> {
    const reason = requiredText("reason", input.reason, REASON_MAX_LENGTH);
    const now = deps.clock.now();
    const row = await deps.unitOfWork.run(async (trx) => {
      const current = await lockOwned(trx, principal, input.experimentId);
      const settlement = cancellationSettlement(current.status, current.hold_cents);
      const updated = await updateExperiment(trx, current, {
        status: transition("cancel", current.status),
        ...cancelledChanges(settlement, reason, principal, now),
      });
      const record = await loadRecord(trx, updated);
      if (current.status !== "draft") await recordCancelled(trx, record, settlement, now);
      return record;
    });
    return row;
  };
}

/** The columns every cancellation writes, a staff rejection of a review too: why, the settlement, who and when. */
export function cancelledChanges(
  settlement: CancellationSettlement,
  reason: string,
  by: Principal,
  now: Date,
): ExperimentChanges & { updated_at: Date } {
  return {
    cancel_reason: reason,
    refund_cents: settlement.refundCents,
    operator_compensation_cents: settlement.operatorCompensationCents,
    refund_status: settlement.refundStatus,
    cancelled_by: by.accountId,
    cancelled_at: now,
    updated_at: now,
  };
}
