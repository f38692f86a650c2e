/**
 * Experiments messages -> the public JSON (docs/api.md, Experiment; issue 4). Amounts go through
 * money.ts (cents -> USD); JSON text fields (request, protocol proposal, templates) are
 * parsed and passed on as the service wrote them.
 *
 * Every function here is a pure function of its message and builds its object in a fixed
 * key order, so one stored answer always renders to the same bytes: an idempotent replay of
 * POST /experiments is byte-for-byte the first answer.
 */
import { type Timestamp, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ExperimentStatus } from "@petri/contracts/experiments";
import type { ProposalAuthorRole, ProposalStep } from "@petri/contracts";
import {
  type Approval,
  type Cancellation,
  type Dispute,
  type Estimate,
  type Experiment,
  type ProtocolProposal,
  ExperimentAction,
  type OperatorAssignment,
  type OperatorIssue,
  type Payment,
  type RequestIssue,
} from "@petri/contracts/experiments";
import {
  CAPACITY_LEVELS,
  type CapacityLevelName,
  EXPERIMENT_STATUS_BY_NAME,
  EXPERIMENT_STATUS_NAME_BY_VALUE,
  type ExperimentStatusName,
} from "@petri/contracts/vocabulary";
import { parseObjectText, writtenObjectText } from "./json-text.js";
import { centsToUsd } from "./money.js";
import { isoOrNull as iso } from "./timestamps.js";

export function statusFromName(name: ExperimentStatusName): ExperimentStatus {
  return EXPERIMENT_STATUS_BY_NAME[name];
}

export function statusName(status: ExperimentStatus): ExperimentStatusName {
  const name = EXPERIMENT_STATUS_NAME_BY_VALUE.get(status);
  if (!name) throw new Error(`the experiments service sent an unknown status ${status}`);
  return name;
}

/** A service's operator_availability; anything unknown reads as none. */
export function operatorAvailability(value: string): CapacityLevelName {
  return (CAPACITY_LEVELS as readonly string[]).includes(value) ? (value as CapacityLevelName) : "none";
}

export function timestampFromIso(value: string | undefined): Timestamp | undefined {
  return value === undefined ? undefined : timestampFromDate(new Date(value));
}

/**
 * The paths of an experiment's sub-resources (docs/api.md: links {self, results, cancel}), plus
 * approve and dispute while its status allows them: the experiments service says which
 * actions it does (Experiment.available_actions); the dispute window it checks when asked.
 */
export function experimentLinks(experiment: Pick<Experiment, "id" | "availableActions">) {
  const self = `/experiments/${encodeURIComponent(experiment.id)}`;
  const approvable = experiment.availableActions.includes(ExperimentAction.APPROVE_RESULTS);
  const disputable = experiment.availableActions.includes(ExperimentAction.DISPUTE);
  return {
    self,
    results: `${self}/results`,
    cancel: self,
    ...(approvable && { approve: `${self}/approve` }),
    ...(disputable && { dispute: `${self}/dispute` }),
  };
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
    operator_availability: operatorAvailability(estimate.operatorAvailability),
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
    estimated_start_date: operator.estimatedStartDate || null,
  };
}

/** The escrow state the marketplace last reported for the experiment (null before any). */
function paymentJson(payment: Payment | undefined) {
  if (!payment) return null;
  return {
    status: payment.status,
    held_usd: centsToUsd(payment.heldCents),
    released_usd: centsToUsd(payment.releasedCents),
    refunded_usd: centsToUsd(payment.refundedCents),
    still_held_usd: centsToUsd(payment.stillHeldCents),
  };
}

export function operatorIssueJson(issue: OperatorIssue) {
  return {
    issue_id: issue.id,
    description: issue.description,
    severity: issue.severity,
    reported_at: iso(issue.reportedAt),
  };
}

function approvalJson(approval: Approval | undefined) {
  if (!approval) return null;
  return {
    rating: approval.rating || null,
    feedback: approval.feedback || null,
    approved_at: iso(approval.approvedAt),
  };
}

/** A dispute as the requester sees it on the experiment; amounts only once resolved. */
export function disputeJson(dispute: Dispute) {
  const resolved = dispute.status === "resolved";
  return {
    dispute_id: dispute.id,
    experiment_id: dispute.experimentId,
    reason: dispute.reason,
    description: dispute.description,
    evidence_urls: [...dispute.evidenceUrls],
    status: dispute.status,
    raised_from: dispute.raisedFrom,
    outcome: dispute.outcome || null,
    requester_amount_usd: resolved ? centsToUsd(dispute.requesterAmountCents) : null,
    operator_amount_usd: resolved ? centsToUsd(dispute.operatorAmountCents) : null,
    resolution_note: dispute.resolutionNote || null,
    created_at: iso(dispute.createdAt),
    resolved_at: iso(dispute.resolvedAt),
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

export function required(experiment: Experiment | undefined): Experiment {
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
    links: experimentLinks(experiment),
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
    links: experimentLinks(experiment),
  };
}

const SENT_REQUEST = { service: "experiments", what: "a request" };
const SENT_PROPOSAL = { service: "experiments", what: "a protocol proposal" };
const SENT_PROPOSED_PROTOCOL = { service: "experiments", what: "a proposed protocol" };

/**
 * The staff protocol proposal and its discussion (docs/api.md, Protocol design requests): typed
 * since D359, else the JSON text of a service built before; null when there is none.
 */
function protocolProposalJson(experiment: Experiment) {
  const proposal = experiment.protocolProposal;
  if (!proposal)
    return parseObjectText(experiment.protocolProposalJson, SENT_PROPOSAL) as ReturnType<
      typeof typedProposalJson
    > | null;
  return typedProposalJson(proposal);
}

function typedProposalJson(proposal: ProtocolProposal) {
  const cost = proposal.estimatedCost;
  return {
    revision: proposal.revision,
    // The service writes only these words (@petri/contracts, PROPOSAL_STEPS).
    status: proposal.status as ProposalStep,
    protocol: writtenObjectText(proposal.protocolJson, SENT_PROPOSED_PROTOCOL),
    note: proposal.note,
    proposed_by: proposal.proposedBy,
    proposed_at: iso(proposal.proposedAt) ?? "",
    decided_at: iso(proposal.decidedAt),
    estimated_cost_cents: cost
      ? { low: Number(cost.lowCents), typical: Number(cost.typicalCents), high: Number(cost.highCents) }
      : null,
    comments: proposal.comments.map((comment) => ({
      revision: comment.revision,
      kind: comment.kind as ProposalStep,
      author_account_id: comment.authorAccountId,
      author_role: comment.authorRole as ProposalAuthorRole,
      text: comment.text,
      at: iso(comment.at) ?? "",
    })),
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
    request: experiment.requestJson ? writtenObjectText(experiment.requestJson, SENT_REQUEST) : {},
    estimate: experiment.estimate ? estimateJson(experiment.estimate) : null,
    hold_amount_usd: centsToUsd(experiment.holdAmountCents),
    payment: paymentJson(experiment.payment),
    operator: operatorJson(experiment.operator),
    issues: experiment.issues.map(operatorIssueJson),
    approval: approvalJson(experiment.approval),
    dispute: experiment.dispute ? disputeJson(experiment.dispute) : null,
    review_reasons: [...experiment.reviewReasons],
    safety_flags: [...experiment.safetyFlags],
    protocol_proposal: protocolProposalJson(experiment),
    cancellation: cancellationJson(experiment.cancellation),
    source_hypothesis_id: experiment.sourceHypothesisId || null,
    created_at: iso(experiment.createdAt) ?? "",
    updated_at: iso(experiment.updatedAt) ?? "",
    submitted_at: iso(experiment.submittedAt),
    started_at: iso(experiment.startedAt),
    results_submitted_at: iso(experiment.resultsSubmittedAt),
    completed_at: iso(experiment.completedAt),
    links: experimentLinks(experiment),
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
