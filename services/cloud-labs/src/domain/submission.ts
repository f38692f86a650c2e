/**
 * A cloud-lab submission's life (docs/api.md "Cloud lab submission status"). Pure.
 *
 *   pending    created with the translated protocol; the worker has not sent it yet
 *   submitted  the lab accepted it (provider_submission_id set)
 *   queued     the lab scheduled it
 *   running    the lab is executing it
 *   completed  results are in
 *   failed     the lab (or sending it) failed; error says why
 *   cancelled  the owner cancelled it
 *
 * Moves go forward only (a lab that reports an earlier status than the one stored is ignored:
 * polls can cross), and the three last statuses are final.
 */
export const SUBMISSION_STATUSES = [
  "pending",
  "submitted",
  "queued",
  "running",
  "completed",
  "failed",
  "cancelled",
] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const FINAL_STATUSES = [
  "completed",
  "failed",
  "cancelled",
] as const satisfies readonly SubmissionStatus[];
export const CANCELLABLE_FROM = [
  "pending",
  "submitted",
  "queued",
  "running",
] as const satisfies readonly SubmissionStatus[];

const RANK: Record<SubmissionStatus, number> = {
  pending: 0,
  submitted: 1,
  queued: 2,
  running: 3,
  completed: 4,
  failed: 4,
  cancelled: 4,
};

export function isFinal(status: SubmissionStatus): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

export function isSubmissionStatus(value: string): value is SubmissionStatus {
  return (SUBMISSION_STATUSES as readonly string[]).includes(value);
}

/** Whether a lab's report moves the stored status: forward only, never out of a final status. */
export function advances(current: SubmissionStatus, reported: SubmissionStatus): boolean {
  if (isFinal(current)) return false;
  return RANK[reported] > RANK[current];
}
