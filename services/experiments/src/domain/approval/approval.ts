/**
 * The requester's approval of delivered results (docs/api.md POST /approve). Pure.
 *
 * docs/api.md leaves the bounds of rating and feedback open: rating is a whole number 1..5 and
 * optional (0, proto3's unset, means none given); feedback is optional, at most 2,000
 * characters. Results count as on time when they were submitted by the claim's deadline.
 */
import { type FieldError, ValidationError } from "@petri/service-kit";
import { NOTE_MAX_LENGTH } from "../text.js";

export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const FEEDBACK_MAX_LENGTH = NOTE_MAX_LENGTH;

export interface ApprovalTerms {
  /** null when none was given. */
  rating: number | null;
  /** null when none was given. */
  feedback: string | null;
}

export function approvalTerms(input: { rating: number; feedback: string }): ApprovalTerms {
  const problems: FieldError[] = [];
  const rating = input.rating;
  if (!Number.isInteger(rating) || (rating !== 0 && (rating < RATING_MIN || rating > RATING_MAX)))
    problems.push({
      field: "rating",
      code: "invalid_value",
      message: `rating must be a whole number from ${RATING_MIN} to ${RATING_MAX}`,
    });
  const feedback = input.feedback.trim();
  if ([...feedback].length > FEEDBACK_MAX_LENGTH)
    problems.push({
      field: "feedback",
      code: "invalid_value",
      message: `feedback must be at most ${FEEDBACK_MAX_LENGTH} characters`,
    });
  if (problems.length > 0) throw new ValidationError("the approval is invalid", problems);
  return { rating: rating === 0 ? null : rating, feedback: feedback === "" ? null : feedback };
}

/** Submitted by the deadline (inclusive); without a deadline, on time. */
export function deliveredOnTime(resultsSubmittedAt: Date | null, deadline: Date | null): boolean {
  if (deadline === null) return true;
  if (resultsSubmittedAt === null) return false;
  return resultsSubmittedAt.getTime() <= deadline.getTime();
}
