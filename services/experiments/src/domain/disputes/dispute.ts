/**
 * Raising a dispute (docs/api.md POST /dispute). Pure: no I/O; time is passed in.
 *
 * - From pending_approval, or from completed within DISPUTE_WINDOW_DAYS of the approval;
 *   after the window 409 dispute_window_closed (with the time it closed); any other status
 *   409 invalid_state.
 * - reason: one of docs/api.md's five; description 20..5,000 characters (at least 50 for
 *   "other", which docs/api.md asks to describe in detail); evidence_urls at most 10 https URLs
 *   of at most 2,000 characters each.
 */
import {
  DISPUTE_REASONS,
  type DisputeReasonName,
  type ExperimentStatusName,
} from "@petri/contracts/vocabulary";
import { ConflictError, type FieldError, InvalidStateError, ValidationError } from "@petri/service-kit";

export const DISPUTE_WINDOW_DAYS = 14;
export const DISPUTE_DESCRIPTION_MIN_LENGTH = 20;
export const DISPUTE_OTHER_DESCRIPTION_MIN_LENGTH = 50;
export const DISPUTE_DESCRIPTION_MAX_LENGTH = 5_000;
export const MAX_EVIDENCE_URLS = 10;
export const EVIDENCE_URL_MAX_LENGTH = 2_000;
export const DISPUTABLE_FROM = [
  "pending_approval",
  "completed",
] as const satisfies readonly ExperimentStatusName[];

const DAY_MS = 86_400_000;

export interface DisputeClaim {
  reason: DisputeReasonName;
  description: string;
  evidenceUrls: string[];
}

const length = (text: string) => [...text].length;

function isHttpsUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "https:" && url.hostname !== "";
  } catch {
    return false;
  }
}

/** The dispute as filed, or a ValidationError naming every problem. */
export function disputeClaim(input: {
  reason: string;
  description: string;
  evidenceUrls: readonly string[];
}): DisputeClaim {
  const problems: FieldError[] = [];
  const reason = DISPUTE_REASONS.find((r) => r === input.reason.trim());
  if (!reason)
    problems.push({
      field: "reason",
      code: input.reason.trim() === "" ? "missing_required" : "invalid_value",
      message: `reason must be one of ${DISPUTE_REASONS.join(", ")}`,
    });
  const description = input.description.trim();
  const minimum = reason === "other" ? DISPUTE_OTHER_DESCRIPTION_MIN_LENGTH : DISPUTE_DESCRIPTION_MIN_LENGTH;
  if (description === "")
    problems.push({ field: "description", code: "missing_required", message: "description is required" });
  else if (length(description) < minimum || length(description) > DISPUTE_DESCRIPTION_MAX_LENGTH)
    problems.push({
      field: "description",
      code: "invalid_value",
      message:
        reason === "other"
          ? `a dispute for reason "other" needs a detailed description of ${minimum} to ${DISPUTE_DESCRIPTION_MAX_LENGTH} characters`
          : `description must be ${minimum} to ${DISPUTE_DESCRIPTION_MAX_LENGTH} characters`,
    });
  if (input.evidenceUrls.length > MAX_EVIDENCE_URLS)
    problems.push({
      field: "evidence_urls",
      code: "invalid_value",
      message: `at most ${MAX_EVIDENCE_URLS} evidence URLs`,
    });
  const evidenceUrls = input.evidenceUrls.slice(0, MAX_EVIDENCE_URLS).map((url) => url.trim());
  evidenceUrls.forEach((url, i) => {
    if (url.length > EVIDENCE_URL_MAX_LENGTH || !isHttpsUrl(url))
      problems.push({
        field: `evidence_urls[${i}]`,
        code: "invalid_value",
        message: `each evidence URL must be an https URL of at most ${EVIDENCE_URL_MAX_LENGTH} characters`,
      });
  });
  if (problems.length > 0 || !reason) throw new ValidationError("the dispute is invalid", problems);
  return { reason, description, evidenceUrls: [...new Set(evidenceUrls)] };
}

/** When the dispute window of an experiment approved at `completedAt` closes. */
export function disputeWindowClosesAt(completedAt: Date): Date {
  return new Date(completedAt.getTime() + DISPUTE_WINDOW_DAYS * DAY_MS);
}

/**
 * Throws unless the requester may dispute now: pending_approval, or completed and `now` not
 * after the end of the window (409 dispute_window_closed otherwise); other statuses 409
 * invalid_state with allowed_from.
 */
export function assertDisputable(
  experiment: { status: ExperimentStatusName; completed_at: Date | null },
  now: Date,
): "pending_approval" | "completed" {
  const { status } = experiment;
  if (status === "pending_approval") return status;
  if (status === "completed" && experiment.completed_at) {
    const closesAt = disputeWindowClosesAt(experiment.completed_at);
    if (now.getTime() > closesAt.getTime())
      throw new ConflictError(
        `the dispute window closed ${DISPUTE_WINDOW_DAYS} days after the approval`,
        "dispute_window_closed",
        { status, window_days: DISPUTE_WINDOW_DAYS, window_closed_at: closesAt.toISOString() },
      );
    return status;
  }
  throw new InvalidStateError(
    `an experiment in status ${status} cannot be disputed`,
    status,
    DISPUTABLE_FROM,
  );
}
