import type { UnitOfWork } from "@petri/events";
import { type Clock, InvalidStateError, NotFoundError, type Principal } from "@petri/service-kit";
import { findDispute, resolveOpenDispute } from "../db/disputes.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import { findExperiment, updateExperiment } from "../db/experiments.js";
import type { DisputeRow, ExperimentsDb } from "../db/schema.js";
import { authorize } from "../domain/authorization.js";
import { disputeResolution } from "../domain/disputes/index.js";
import { transition } from "../domain/lifecycle/transitions.js";
import { recordDisputeResolved } from "./experiment-events.js";

/**
 * Staff resolve an open dispute: the experiment goes disputed -> resolved and the dispute
 * records the outcome (requester, operator or split) with the amounts to each side in cents.
 * The amount at stake is the experiment's hold; a split must add up to it exactly (422).
 * DisputeResolved carries the dispute with raised_from, so the ledger knows whether to split
 * the escrow (raised before approval) or to claw the requester's share back from the
 * operator (raised after approval, when the hold was already released).
 */
export function makeResolveDispute(deps: { clock: Clock; unitOfWork: UnitOfWork<ExperimentsDb> }) {
  return async function resolveDispute(
    principal: Principal,
    input: {
      disputeId: string;
      outcome: string;
      requesterAmountCents: number;
      operatorAmountCents: number;
      note: string;
    },
  ): Promise<{ dispute: DisputeRow; experiment: ExperimentRecord }> {
    authorize(principal, "staff");
    const now = deps.clock.now();
    const result = await deps.unitOfWork.run(async (trx) => {
      const dispute = await findDispute(trx, input.disputeId, { lock: true });
      if (!dispute) throw new NotFoundError("dispute", input.disputeId);
      if (dispute.status !== "open")
        throw new InvalidStateError("the dispute is already resolved", dispute.status, ["open"]);
      const current = await findExperiment(trx, dispute.experiment_id, { lock: true });
      if (!current)
        throw new Error(`dispute ${dispute.id} refers to a missing experiment ${dispute.experiment_id}`);
      const status = transition("resolve_dispute", current.status);
      const resolution = disputeResolution({
        outcome: input.outcome,
        amountAtStakeCents: current.hold_cents,
        requesterCents: input.requesterAmountCents,
        operatorCents: input.operatorAmountCents,
        note: input.note,
      });
      const resolved = await resolveOpenDispute(trx, dispute.id, {
        outcome: resolution.outcome,
        requester_amount_cents: resolution.requesterCents,
        operator_amount_cents: resolution.operatorCents,
        resolution_note: resolution.note,
        resolved_by: principal.accountId,
        resolved_at: now,
      });
      if (!resolved) throw new InvalidStateError("the dispute is already resolved", "resolved", ["open"]);
      const updated = await updateExperiment(trx, current, { status, updated_at: now });
      const experiment = await loadRecord(trx, updated);
      await recordDisputeResolved(trx, experiment, resolved, now);
      return { dispute: resolved, experiment };
    });
    return result;
  };
}
