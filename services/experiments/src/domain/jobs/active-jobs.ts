/**
 * Which experiments count against an operator's capacity, and which are not jobs at all.
 */
import type { ExperimentStatusName } from "@petri/contracts/vocabulary";

/** An operator is busy with an experiment from its claim until it submits results. */
export const ACTIVE_JOB_STATUSES = [
  "claimed",
  "in_progress",
] as const satisfies readonly ExperimentStatusName[];

/** Never routed to operators: to them these experiments do not exist (404 on a claim). */
export const JOB_HIDDEN_STATUSES = [
  "draft",
  "pending_review",
] as const satisfies readonly ExperimentStatusName[];

export function isActiveJobStatus(status: ExperimentStatusName): boolean {
  return (ACTIVE_JOB_STATUSES as readonly ExperimentStatusName[]).includes(status);
}
