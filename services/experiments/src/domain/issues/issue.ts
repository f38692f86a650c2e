/**
 * Issues the assigned operator reports while it holds an experiment (docs/api.md event "issue").
 * Pure: no I/O, no clock.
 *
 * - Reported while the work is the operator's: claimed or in_progress (once results are in,
 *   the requester's approval or dispute is the conversation); other statuses are 409
 *   invalid_state.
 * - description 10..5,000 characters, severity low / medium / high / critical.
 * - At most MAX_ISSUES_PER_EXPERIMENT per experiment; one more is 409 issue_limit_reached,
 *   so the list every event carries stays bounded.
 */
import {
  type ExperimentStatusName,
  ISSUE_SEVERITIES,
  type IssueSeverityName,
} from "@petri/contracts/vocabulary";
import { ConflictError, type FieldError, InvalidStateError, ValidationError } from "@petri/service-kit";

export const ISSUE_DESCRIPTION_MIN_LENGTH = 10;
export const ISSUE_DESCRIPTION_MAX_LENGTH = 5_000;
export const MAX_ISSUES_PER_EXPERIMENT = 100;
export const ISSUE_REPORTABLE_FROM = [
  "claimed",
  "in_progress",
] as const satisfies readonly ExperimentStatusName[];

export interface IssueReport {
  description: string;
  severity: IssueSeverityName;
}

const length = (text: string) => [...text].length;

/** The trimmed description and the severity, or a ValidationError naming every problem. */
export function issueReport(input: { description: string; severity: string }): IssueReport {
  const problems: FieldError[] = [];
  const description = input.description.trim();
  if (description === "")
    problems.push({ field: "description", code: "missing_required", message: "description is required" });
  else if (
    length(description) < ISSUE_DESCRIPTION_MIN_LENGTH ||
    length(description) > ISSUE_DESCRIPTION_MAX_LENGTH
  )
    problems.push({
      field: "description",
      code: "invalid_value",
      message: `description must be ${ISSUE_DESCRIPTION_MIN_LENGTH} to ${ISSUE_DESCRIPTION_MAX_LENGTH} characters`,
    });
  const severity = ISSUE_SEVERITIES.find((s) => s === input.severity.trim().toLowerCase());
  if (!severity)
    problems.push({
      field: "severity",
      code: input.severity.trim() === "" ? "missing_required" : "invalid_value",
      message: `severity must be one of ${ISSUE_SEVERITIES.join(", ")}`,
    });
  if (problems.length > 0 || !severity) throw new ValidationError("the issue is invalid", problems);
  return { description, severity };
}

/** Throws 409 invalid_state outside claimed / in_progress, 409 issue_limit_reached at the limit. */
export function assertIssueAccepted(status: ExperimentStatusName, issuesSoFar: number): void {
  if (!(ISSUE_REPORTABLE_FROM as readonly ExperimentStatusName[]).includes(status))
    throw new InvalidStateError(
      `issues cannot be reported on an experiment in status ${status}`,
      status,
      ISSUE_REPORTABLE_FROM,
    );
  if (issuesSoFar >= MAX_ISSUES_PER_EXPERIMENT)
    throw new ConflictError(
      `an experiment takes at most ${MAX_ISSUES_PER_EXPERIMENT} issues`,
      "issue_limit_reached",
      { limit: MAX_ISSUES_PER_EXPERIMENT },
    );
}
