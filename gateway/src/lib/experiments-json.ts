/**
 * Experiments messages -> the public JSON (SPEC.md, Experiment; issue 4). Amounts go through
 * money.ts (cents -> USD); JSON text fields (request, protocol proposal, templates) are
 * parsed and passed on as the service wrote them.
 *
 * Every function here is a pure function of its message and builds its object in a fixed
 * key order, so one stored answer always renders to the same bytes: an idempotent replay of
 * POST /experiments is byte-for-byte the first answer.
 */
import { type Timestamp, timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type Cancellation,
  type Estimate,
  type Experiment,
  ExperimentStatus,
  type OperatorAssignment,
  type RequestIssue,
} from "@petri/contracts/experiments";
import { connectErrorToHttp } from "./connect-errors.js";
import { centsToUsd } from "./money.js";
import { ApiError } from "./problem.js";

/** SPEC.md, Experiment status, in lifecycle order. */
export const EXPERIMENT_STATUSES = [
  "draft",
  "pending_review",
  "open",
  "claimed",
  "in_progress",
  "pending_approval",
  "completed",
  "disputed",
  "resolved",
  "cancelled",
] as const;
export type ExperimentStatusName = (typeof EXPERIMENT_STATUSES)[number];

const STATUS_BY_NAME: Record<ExperimentStatusName, ExperimentStatus> = {
  draft: ExperimentStatus.DRAFT,
  pending_review: ExperimentStatus.PENDING_REVIEW,
  open: ExperimentStatus.OPEN,
  claimed: ExperimentStatus.CLAIMED,
  in_progress: ExperimentStatus.IN_PROGRESS,
  pending_approval: ExperimentStatus.PENDING_APPROVAL,
  completed: ExperimentStatus.COMPLETED,
  disputed: ExperimentStatus.DISPUTED,
  resolved: ExperimentStatus.RESOLVED,
  cancelled: ExperimentStatus.CANCELLED,
};
const NAME_BY_STATUS = new Map<ExperimentStatus, ExperimentStatusName>(
  Object.entries(STATUS_BY_NAME).map(([name, status]) => [status, name as ExperimentStatusName]),
);

export function statusFromName(name: ExperimentStatusName): ExperimentStatus {
  return STATUS_BY_NAME[name];
}

export function statusName(status: ExperimentStatus): ExperimentStatusName {
  const name = NAME_BY_STATUS.get(status);
  if (!name) throw new Error(`the experiments service sent an unknown status ${status}`);
  return name;
}

export const OPERATOR_AVAILABILITY = ["high", "medium", "low", "none"] as const;
type Availability = (typeof OPERATOR_AVAILABILITY)[number];

function availability(value: string): Availability {
  return (OPERATOR_AVAILABILITY as readonly string[]).includes(value) ? (value as Availability) : "none";
}

function iso(timestamp: Timestamp | undefined): string | null {
  return timestamp ? timestampDate(timestamp).toISOString() : null;
}

export function timestampFromIso(value: string | undefined): Timestamp | undefined {
  return value === undefined ? undefined : timestampFromDate(new Date(value));
}

/** Parses a JSON text field of a message; "" is null. */
export function parseJsonField(text: string, what: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`the experiments service sent ${what} that is not JSON`);
  }
}

function parseObjectField(text: string, what: string): Record<string, unknown> | null {
  const value = parseJsonField(text, what);
  if (value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`the experiments service sent ${what} that is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** The paths of an experiment's sub-resources (SPEC.md: links {self, results, cancel}). */
export function experimentLinks(experimentId: string) {
  const self = `/experiments/${encodeURIComponent(experimentId)}`;
  return { self, results: `${self}/results`, cancel: self };
}

export function estimateJson(estimate: Estimate) {
  const breakdown = estimate.breakdown;
  return {
    estimated_cost_usd: {
      low: centsToUsd(estimate.costLowCents),
      typical: centsToUsd(estimate.costTypicalCents),
      high: centsToUsd(estimate.costHighCents),
    },
    estimated_turnaround_days: {
      standard: estimate.turnaroundStandardDays,
      expedited: estimate.turnaroundExpeditedDays,
    },
    cost_breakdown: {
      materials: centsToUsd(breakdown?.materialsCents ?? 0n),
      labor: centsToUsd(breakdown?.laborCents ?? 0n),
      equipment: centsToUsd(breakdown?.equipmentCents ?? 0n),
      platform_fee: centsToUsd(breakdown?.platformFeeCents ?? 0n),
      privacy_premium: centsToUsd(breakdown?.privacyPremiumCents ?? 0n),
    },
    operator_availability: availability(estimate.operatorAvailability),
  };
}

/** The typical cost and the turnaround of the request's priority (null without an estimate). */
function headline(estimate: Estimate | undefined) {
  if (!estimate) return { estimated_cost_usd: null, estimated_turnaround_days: null };
  return {
    estimated_cost_usd: centsToUsd(estimate.costTypicalCents),
    estimated_turnaround_days: estimate.turnaroundDays || estimate.turnaroundStandardDays,
  };
}

/** An error of a validation: {path, code, message}. */
export function issueJson(issue: RequestIssue) {
  return { path: issue.path, code: issue.code, message: issue.message };
}

/** A warning: {path, code, message, suggestion} (suggestion null when there is none). */
export function warningJson(issue: RequestIssue) {
  return { path: issue.path, code: issue.code, message: issue.message, suggestion: issue.suggestion || null };
}

function operatorJson(operator: OperatorAssignment | undefined) {
  if (!operator) return null;
  return {
    operator_id: operator.operatorId,
    lab_name: operator.labName,
    claimed_at: iso(operator.claimedAt),
    deadline: iso(operator.deadline),
  };
}

function cancellationJson(cancellation: Cancellation | undefined) {
  if (!cancellation) return null;
  return {
    reason: cancellation.reason,
    refund_amount_usd: centsToUsd(cancellation.refundAmountCents),
    operator_compensation_usd: centsToUsd(cancellation.operatorCompensationCents),
    refund_status: cancellation.refundStatus,
    cancelled_at: iso(cancellation.cancelledAt),
  };
}

function required(experiment: Experiment | undefined): Experiment {
  if (!experiment) throw new Error("the experiments service returned no experiment");
  return experiment;
}

/**
 * The answer to POST /experiments and POST /experiments/{id}/submit:
 * {experiment_id, status, created_at, estimated_cost_usd, estimated_turnaround_days, links, warnings}.
 */
export function submissionJson(message: Experiment | undefined, warnings: readonly RequestIssue[]) {
  const experiment = required(message);
  return {
    experiment_id: experiment.id,
    status: statusName(experiment.status),
    created_at: iso(experiment.createdAt) ?? "",
    ...headline(experiment.estimate),
    links: experimentLinks(experiment.id),
    warnings: warnings.map(warningJson),
  };
}

/** A list item of GET /experiments and of the review queue. */
export function summaryJson(experiment: Experiment) {
  return {
    experiment_id: experiment.id,
    status: statusName(experiment.status),
    experiment_type: experiment.experimentType,
    title: experiment.title,
    ...headline(experiment.estimate),
    review_reasons: [...experiment.reviewReasons],
    created_at: iso(experiment.createdAt) ?? "",
    updated_at: iso(experiment.updatedAt) ?? "",
    links: experimentLinks(experiment.id),
  };
}

/** GET /experiments/{id} and every operation that answers with the experiment. */
export function detailsJson(message: Experiment | undefined) {
  const experiment = required(message);
  return {
    experiment_id: experiment.id,
    status: statusName(experiment.status),
    experiment_type: experiment.experimentType,
    title: experiment.title,
    requester_account_id: experiment.requesterAccountId,
    request: parseObjectField(experiment.requestJson, "a request") ?? {},
    estimate: experiment.estimate ? estimateJson(experiment.estimate) : null,
    hold_amount_usd: centsToUsd(experiment.holdAmountCents),
    operator: operatorJson(experiment.operator),
    review_reasons: [...experiment.reviewReasons],
    safety_flags: [...experiment.safetyFlags],
    protocol_proposal: parseObjectField(experiment.protocolProposalJson, "a protocol proposal"),
    cancellation: cancellationJson(experiment.cancellation),
    created_at: iso(experiment.createdAt) ?? "",
    updated_at: iso(experiment.updatedAt) ?? "",
    submitted_at: iso(experiment.submittedAt),
    links: experimentLinks(experiment.id),
  };
}

/** DELETE /experiments/{id}: {experiment_id, status, reason, refund_amount_usd, refund_status, ...}. */
export function cancellationAnswerJson(message: Experiment | undefined) {
  const experiment = required(message);
  const cancellation = cancellationJson(experiment.cancellation);
  if (!cancellation) throw new Error("the experiments service cancelled without a cancellation record");
  return {
    experiment_id: experiment.id,
    status: statusName(experiment.status),
    reason: cancellation.reason,
    refund_amount_usd: cancellation.refund_amount_usd,
    refund_status: cancellation.refund_status,
    operator_compensation_usd: cancellation.operator_compensation_usd,
    cancelled_at: cancellation.cancelled_at,
  };
}

/**
 * Runs the one experiments call of a request. A validation failure keeps its code and
 * details, and each entry of details.errors names the offending request field as `path`
 * (the request-model path, as POST /validate reports it) and as `field` (the name every
 * other operation's validation errors use). Every other error is mapped by onError.
 */
export async function callExperiments<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ConnectError) || error.code !== Code.InvalidArgument) throw error;
    const { body } = connectErrorToHttp(error, "");
    const details = { ...body.error.details };
    if (Array.isArray(details.errors)) details.errors = details.errors.map(withPath);
    throw new ApiError(422, body.error.code, body.error.message, details);
  }
}

/** A validation error entry with both `field` and `path` set to the request path. */
export function withPath(entry: unknown): unknown {
  if (entry === null || typeof entry !== "object") return entry;
  const { field, path, code, message, ...rest } = entry as Record<string, unknown>;
  const where = typeof path === "string" ? path : typeof field === "string" ? field : "";
  return { field: where, path: where, code, message, ...rest };
}
