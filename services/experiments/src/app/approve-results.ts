import type { UnitOfWork } from "@petri/events";
import type { Clock, Principal } from "@petri/service-kit";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import { updateExperiment } from "../db/experiments.js";
import type { ExperimentsDb } from "../db/schema.js";
import { approvalTerms, deliveredOnTime } from "../domain/approval/index.js";
import { assertCan, transition } from "../domain/lifecycle/transitions.js";
import { loadOwned, withStateRecheck } from "./experiment-access.js";
import { recordResultsApproved } from "./experiment-events.js";

/**
 * POST /experiments/{id}/approve: the requester accepts the results: pending_approval ->
 * completed, with the optional rating (1-5) and feedback; ResultsApproved is recorded with
 * on_time (submitted by the deadline) in the same transaction.
 *
 * payment_released is true: the release instruction (the event) commits with the approval,
 * and the marketplace ledger applies it exactly once (one release posting per experiment);
 * Experiment.payment shows the ledger's state once it has.
 *
 * Approve and dispute sent together: both read pending_approval and change it with a
 * compare-and-set, so exactly one wins; the other is 409 (invalid_state for an approval that
 * finds the experiment disputed).
 */
export function makeApproveResults(deps: { clock: Clock; unitOfWork: UnitOfWork<ExperimentsDb> }) {
  return async function approveResults(
    principal: Principal,
    input: { experimentId: string; rating: number; feedback: string },
  ): Promise<{ experiment: ExperimentRecord; paymentReleased: boolean }> {
    const terms = approvalTerms(input);
    const now = deps.clock.now();
    const record = await deps.unitOfWork.run(async (trx) => {
      const current = await loadOwned(trx, principal, input.experimentId);
      const status = transition("approve_results", current.status);
      const updated = await withStateRecheck(
        trx,
        current.id,
        () =>
          updateExperiment(trx, current, {
            status,
            approval_rating: terms.rating,
            approval_feedback: terms.feedback,
            approved_at: now,
            completed_at: now,
            updated_at: now,
          }),
        (after) => assertCan("approve_results", after.status),
      );
      const approved = await loadRecord(trx, updated);
      await recordResultsApproved(
        trx,
        approved,
        { rating: terms.rating, onTime: deliveredOnTime(current.results_submitted_at, current.deadline) },
        now,
      );
      return approved;
    });
    return { experiment: record, paymentReleased: true };
  };
}
