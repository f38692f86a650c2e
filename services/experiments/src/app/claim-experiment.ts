import type { UnitOfWork } from "@petri/events";
import { eligibilityFailures } from "@petri/contracts";
import { type Clock, ForbiddenError, NotFoundError, type Principal } from "@petri/service-kit";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import { claimOpenExperiment, countActiveJobs, findExperiment, jobOf } from "../db/experiments.js";
import { eligibilitySnapshot, findEligibilityByAccount } from "../db/operator-eligibility.js";
import type { ExperimentRow, ExperimentsDb } from "../db/schema.js";
import {
  type ClaimInput,
  assertClaimable,
  assertIsJob,
  claimDeadline,
  claimMayRevealState,
  claimTerms,
} from "../domain/jobs/index.js";
import { recordClaimed } from "./experiment-events.js";

/**
 * POST /operator/jobs/{id}/claim: a verified operator takes an open experiment.
 *
 * Before anything is read: both confirmations, the start date and the notes (422). Then, in
 * one transaction:
 * 1. the caller's operator_eligibility row (the projection of the marketplace's snapshots),
 *    locked FOR UPDATE so that one operator's concurrent claims run one after the other and
 *    each sees the other's job when counting capacity; none: 403 not a verified operator;
 * 2. the experiment: unknown, draft or pending_review 404; the caller's own request 403;
 * 3. the shared eligibility rule (@petri/contracts eligibilityFailures) on the snapshot, the
 *    job requirements and the operator's active jobs: 403 with details.failed_filters. This
 *    comes before the state, so an operator that may not take the job learns only why, never
 *    whether someone else holds it or how far it got;
 * 4. the state: open goes on; otherwise a request that is not public and that the caller
 *    cannot see is 404, one another claim took is 409 experiment_already_claimed, any other
 *    409 invalid_state;
 * 5. UPDATE ... WHERE status = 'open': zero rows means a concurrent claim won (answered as in
 *    4 from the row as it is now), so exactly one of N concurrent claims succeeds;
 * 6. ExperimentClaimed in the outbox, in the same transaction.
 *
 * The deadline is the end of the request's hard deadline (UTC), else the claim time plus the
 * experiment's turnaround.
 */
export function makeClaimExperiment(deps: { clock: Clock; unitOfWork: UnitOfWork<ExperimentsDb> }) {
  return async function claimExperiment(
    principal: Principal,
    input: ClaimInput & { experimentId: string },
  ): Promise<ExperimentRecord> {
    const terms = claimTerms(input);
    const now = deps.clock.now();
    const record = await deps.unitOfWork.run(async (trx) => {
      const operator = await findEligibilityByAccount(trx, principal.accountId, { lock: true });
      if (!operator)
        throw new ForbiddenError("not a verified operator: only verified labs may claim experiments");
      const current = await findExperiment(trx, input.experimentId);
      if (!current) throw new NotFoundError("experiment", input.experimentId);
      assertIsJob(current);
      if (current.requester_account_id === principal.accountId)
        throw new ForbiddenError("an operator may not claim its own experiment request");

      const job = jobOf(current);
      const activeJobs = await countActiveJobs(trx, operator.operator_id);
      const failed = eligibilityFailures(eligibilitySnapshot(operator), job, activeJobs, now);
      if (failed.length > 0)
        throw new ForbiddenError(
          `the operator may not take this job: ${failed.map((f) => f.reason).join("; ")}`,
          {
            failed_filters: failed.map((f) => f.filter),
            reasons: failed.map((f) => f.reason),
          },
        );
      const assertOpen = (row: ExperimentRow) =>
        assertClaimable(row, { revealState: claimMayRevealState(principal, row, jobOf(row).privacy) });
      assertOpen(current);

      const claimed = await claimOpenExperiment(trx, current.id, {
        operator_id: operator.operator_id,
        operator_account_id: principal.accountId,
        operator_lab_name: operator.lab_name,
        claimed_at: now,
        deadline: claimDeadline({
          claimedAt: now,
          hardDeadline: job.deadline,
          turnaroundDays: current.turnaround_days,
        }),
        estimated_start_date: terms.estimatedStartDate,
        claim_notes: terms.notes,
        updated_at: now,
      });
      if (!claimed) {
        // Lost the race: the row as the winner (or a cancellation) left it says which 409.
        const after = await findExperiment(trx, current.id);
        assertOpen(after ?? current);
        throw new Error(`claim of ${current.id} matched no open row, yet it reads as open`);
      }
      const claimedRecord = await loadRecord(trx, claimed);
      await recordClaimed(trx, claimedRecord, now);
      return claimedRecord;
    });
    return record;
  };
}
