import { InvalidStateError, type Principal } from "@petri/service-kit";
import type { LabAdapter } from "../adapters/lab-adapter.js";
import { updateSubmission } from "../db/submissions.js";
import type { SubmissionRow } from "../db/schema.js";
import { CANCELLABLE_FROM } from "../domain/submission.js";
import type { ChangingDeps } from "./deps.js";
import { ownedSubmission } from "./owned-submission.js";
import { recordStatusChanged } from "./submission-events.js";
import { forLab } from "./submission-worker.js";

/** More than the number of statuses a submission can pass through before it ends. */
const MAX_ATTEMPTS = 6;

/**
 * POST /cloud-labs/submissions/{id}/cancel: from pending, submitted, queued or running. A
 * submission the lab has accepted is cancelled at the lab first (outside any transaction);
 * then the status changes only if it is still what was read, so a run that completed
 * meanwhile stays completed (409).
 */
export function makeCancelSubmission(deps: ChangingDeps & { adapterFor(row: SubmissionRow): LabAdapter }) {
  return async function cancelSubmission(principal: Principal, id: string): Promise<SubmissionRow> {
    const refuse = (status: string) =>
      new InvalidStateError(`a ${status} submission cannot be cancelled`, status, CANCELLABLE_FROM);
    // The worker may move the submission on between the read and the update (submitted ->
    // queued -> running, on another connection): then read it again, and cancel it from its
    // new status while that is still cancellable. Statuses only move forward, so this ends.
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const row = await ownedSubmission(deps.db, principal, id);
      if (!(CANCELLABLE_FROM as readonly string[]).includes(row.status)) throw refuse(row.status);
      if (row.provider_submission_id)
        await deps.adapterFor(row).cancel(forLab(row), AbortSignal.timeout(10_000));
      const now = deps.clock.now();
      const cancelled = await deps.unitOfWork.run(async (trx) => {
        const after = await updateSubmission(
          trx,
          { id: row.id, expected: row.status },
          { status: "cancelled", cancel_requested: true, completed_at: now, updated_at: now },
        );
        if (after) await recordStatusChanged(trx, after, row.status, now);
        return after;
      });
      if (cancelled) return cancelled;
    }
    throw refuse((await ownedSubmission(deps.db, principal, id)).status);
  };
}
