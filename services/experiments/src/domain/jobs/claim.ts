/**
 * The operator's claim: what it must confirm and state, the experiment's deadline, and why
 * an experiment cannot be claimed. Pure: no I/O, no clock.
 */
import {
  ConflictError,
  type FieldError,
  NotFoundError,
  type Principal,
  ValidationError,
} from "@petri/service-kit";
import type { ExperimentStatusName } from "@petri/contracts/vocabulary";
import { type ExperimentParties, canSee } from "../authorization.js";
import { NOTE_MAX_LENGTH, optionalText } from "../text.js";
import { assertCan } from "../lifecycle/transitions.js";
import { JOB_HIDDEN_STATUSES } from "./active-jobs.js";

export const CLAIM_NOTES_MAX_LENGTH = NOTE_MAX_LENGTH;
/** The deadline of a claim when the experiment has neither a hard deadline nor a turnaround. */
export const DEFAULT_DEADLINE_DAYS = 14;
const DAY_MS = 86_400_000;

export interface ClaimInput {
  equipmentConfirmation: boolean;
  authorizationConfirmation: boolean;
  /** YYYY-MM-DD or "" (none). */
  estimatedStartDate: string;
  notes: string;
}

export interface ClaimTerms {
  estimatedStartDate: string | null;
  notes: string | null;
}

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * Both confirmations must be true (docs/api.md: the operator confirms equipment and
 * authorization); the start date is optional and a real date; notes at most 2,000
 * characters. Every problem is reported at once (422 validation_failed).
 */
export function claimTerms(input: ClaimInput): ClaimTerms {
  const problems: FieldError[] = [];
  if (input.equipmentConfirmation !== true)
    problems.push({
      field: "equipment_confirmation",
      code: "invalid_value",
      message: "equipment_confirmation must be true: confirm the lab has the required equipment",
    });
  if (input.authorizationConfirmation !== true)
    problems.push({
      field: "authorization_confirmation",
      code: "invalid_value",
      message:
        "authorization_confirmation must be true: confirm the lab is authorised to run this experiment",
    });
  const start = input.estimatedStartDate.trim();
  if (start !== "" && !isCalendarDate(start))
    problems.push({
      field: "estimated_start_date",
      code: "invalid_value",
      message: "estimated_start_date must be a date written YYYY-MM-DD",
    });
  let notes = "";
  try {
    notes = optionalText("notes", input.notes, CLAIM_NOTES_MAX_LENGTH);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problems.push(...error.fieldErrors);
  }
  if (problems.length > 0) throw new ValidationError("the claim is invalid", problems);
  return { estimatedStartDate: start === "" ? null : start, notes: notes === "" ? null : notes };
}

/**
 * When the results are due: the end (UTC) of the request's hard deadline if it has one, else
 * the claim time plus the experiment's turnaround (the days of its priority), else plus
 * DEFAULT_DEADLINE_DAYS.
 */
export function claimDeadline(input: {
  claimedAt: Date;
  /** YYYY-MM-DD or "". */
  hardDeadline: string;
  turnaroundDays: number | null;
}): Date {
  if (isCalendarDate(input.hardDeadline)) return new Date(`${input.hardDeadline}T23:59:59.999Z`);
  const days =
    input.turnaroundDays !== null && Number.isInteger(input.turnaroundDays) && input.turnaroundDays > 0
      ? input.turnaroundDays
      : DEFAULT_DEADLINE_DAYS;
  return new Date(input.claimedAt.getTime() + days * DAY_MS);
}

/** Drafts and requests in review are not jobs: to operators they do not exist (404, as an unknown id). */
export function assertIsJob(experiment: { id: string; status: ExperimentStatusName }): void {
  if ((JOB_HIDDEN_STATUSES as readonly ExperimentStatusName[]).includes(experiment.status))
    throw new NotFoundError("experiment", experiment.id);
}

/**
 * Whether a claim may answer with the state of an experiment that is no longer open: when the
 * request is public (privacy open, as the job feed shows it) or the caller can see it anyway
 * (its requester, its operator, staff). Anyone else gets the 404 of an unknown id.
 */
export function claimMayRevealState(
  principal: Principal,
  experiment: ExperimentParties,
  privacy: string,
): boolean {
  return privacy === "open" || canSee(principal, experiment);
}

/**
 * Throws unless the experiment can be claimed now. Only for a caller already found eligible
 * to take it, so that the state is told only to those who may take the job: not a job (draft,
 * pending_review) is 404; no longer open and `revealState` false is 404 too; an experiment
 * another claim already took (any status after open, operator assigned) is 409
 * experiment_already_claimed, the same answer the loser of a concurrent claim gets; any other
 * status (cancelled before a claim) is 409 invalid_state.
 */
export function assertClaimable(
  experiment: { id: string; status: ExperimentStatusName; operator_id: string | null },
  caller: { revealState: boolean },
): void {
  assertIsJob(experiment);
  if (experiment.status === "open") return;
  if (!caller.revealState) throw new NotFoundError("experiment", experiment.id);
  if (experiment.operator_id !== null) throw alreadyClaimed(experiment.status);
  assertCan("claim", experiment.status);
}

/** 409 experiment_already_claimed: another operator's claim won. */
export function alreadyClaimed(status: ExperimentStatusName): ConflictError {
  return new ConflictError(
    "the experiment was already claimed by another operator",
    "experiment_already_claimed",
    {
      status,
      allowed_from: ["open"],
    },
  );
}
