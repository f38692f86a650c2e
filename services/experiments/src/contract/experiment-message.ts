/**
 * Domain <-> contract mapping of the Experiment record (petri.experiments.v1.Experiment).
 * Used by the RPC handlers and by the use cases for event payloads (events carry the
 * experiment as it is after the change).
 */
import {
  EXPERIMENT_ACTION_BY_NAME,
  EXPERIMENT_STATUS_BY_NAME,
  EXPERIMENT_STATUS_NAME_BY_VALUE,
  type ExperimentStatusName,
} from "@petri/contracts/vocabulary";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ExperimentStatus as ExperimentStatusMessage } from "@petri/contracts/experiments";
import {
  ApprovalSchema,
  CancellationSchema,
  CostBreakdownSchema,
  type Dispute,
  DisputeSchema,
  type Estimate,
  EstimateSchema,
  type Experiment,
  ExperimentSchema,
  type JobRequirements as JobRequirementsMessage,
  JobRequirementsSchema,
  type OperatorIssue,
  OperatorAssignmentSchema,
  OperatorIssueSchema,
  PaymentSchema,
  ProposalCommentSchema,
  ProposalCostEstimateSchema,
  type ProtocolProposal,
  ProtocolProposalSchema,
  type RequestIssue,
  RequestIssueSchema,
} from "@petri/contracts/experiments";
import { type EstimateRecord, estimateOf } from "../db/estimate-records.js";
import type { ExperimentView } from "../db/experiment-records.js";
import { jobOf } from "../db/experiments.js";
import type { DisputeRow, ExperimentRow, IssueRow } from "../db/schema.js";
import type { JobRequirements } from "../domain/jobs/index.js";
import { actionsFrom } from "../domain/lifecycle/transitions.js";

export function statusMessage(status: ExperimentStatusName): ExperimentStatusMessage {
  return EXPERIMENT_STATUS_BY_NAME[status];
}

/** The domain status of a proto status; undefined for UNSPECIFIED or an unknown number. */
export function statusFromMessage(status: ExperimentStatusMessage): ExperimentStatusName | undefined {
  return EXPERIMENT_STATUS_NAME_BY_VALUE.get(status);
}

export function estimateMessage(estimate: EstimateRecord): Estimate {
  const b = estimate.cost_breakdown;
  return create(EstimateSchema, {
    costLowCents: BigInt(estimate.cost_low_cents),
    costTypicalCents: BigInt(estimate.cost_typical_cents),
    costHighCents: BigInt(estimate.cost_high_cents),
    turnaroundStandardDays: estimate.turnaround_standard_days,
    turnaroundExpeditedDays: estimate.turnaround_expedited_days,
    turnaroundDays: estimate.turnaround_days,
    breakdown: create(CostBreakdownSchema, {
      materialsCents: BigInt(b.materials_cents),
      laborCents: BigInt(b.labor_cents),
      equipmentCents: BigInt(b.equipment_cents),
      platformFeeCents: BigInt(b.platform_fee_cents),
      privacyPremiumCents: BigInt(b.privacy_premium_cents),
    }),
    operatorAvailability: estimate.operator_availability,
  });
}

type ProposalColumns = Pick<ExperimentRow, "protocol_proposal" | "proposal_comments">;

/** The protocol proposal with its discussion, as the deprecated protocol_proposal_json ("" when none). */
export function proposalJson(row: ProposalColumns): string {
  if (!row.protocol_proposal) return "";
  return JSON.stringify({ ...row.protocol_proposal, comments: row.proposal_comments });
}

/** The protocol proposal with its discussion (D359); undefined when there is none. */
export function proposalMessage(row: ProposalColumns): ProtocolProposal | undefined {
  const proposal = row.protocol_proposal;
  if (!proposal) return undefined;
  const cost = proposal.estimated_cost_cents;
  return create(ProtocolProposalSchema, {
    revision: proposal.revision,
    status: proposal.status,
    protocolJson: JSON.stringify(proposal.protocol),
    note: proposal.note,
    proposedBy: proposal.proposed_by,
    proposedAt: timestampFromDate(new Date(proposal.proposed_at)),
    decidedAt: proposal.decided_at ? timestampFromDate(new Date(proposal.decided_at)) : undefined,
    estimatedCost: cost
      ? create(ProposalCostEstimateSchema, {
          lowCents: BigInt(cost.low),
          typicalCents: BigInt(cost.typical),
          highCents: BigInt(cost.high),
        })
      : undefined,
    comments: row.proposal_comments.map((comment) =>
      create(ProposalCommentSchema, {
        revision: comment.revision,
        kind: comment.kind,
        authorAccountId: comment.author_account_id,
        authorRole: comment.author_role,
        text: comment.text,
        at: timestampFromDate(new Date(comment.at)),
      }),
    ),
  });
}

const optionalTimestamp = (date: Date | null) => (date ? timestampFromDate(date) : undefined);

export function jobMessage(job: JobRequirements): JobRequirementsMessage {
  return create(JobRequirementsSchema, {
    experimentType: job.experimentType,
    bslLevel: job.bslLevel,
    needsHumanSamplesApproval: job.needsHumanSamplesApproval,
    needsAnimalSamplesApproval: job.needsAnimalSamplesApproval,
    needsHazardousChemicalsApproval: job.needsHazardousChemicalsApproval,
    equipmentRequired: [...job.equipmentRequired],
    budgetCents: BigInt(job.budgetCents),
    deadline: job.deadline,
    priority: job.priority,
    desiredTurnaroundDays: job.desiredTurnaroundDays,
    menuTags: [...job.menuTags],
    customProtocol: job.customProtocol,
    category: job.category,
    privacy: job.privacy,
  });
}

export function operatorIssueMessage(issue: IssueRow): OperatorIssue {
  return create(OperatorIssueSchema, {
    id: issue.id,
    description: issue.description,
    severity: issue.severity,
    reportedAt: timestampFromDate(issue.reported_at),
  });
}

export function disputeMessage(dispute: DisputeRow): Dispute {
  return create(DisputeSchema, {
    id: dispute.id,
    experimentId: dispute.experiment_id,
    reason: dispute.reason,
    description: dispute.description,
    evidenceUrls: [...dispute.evidence_urls],
    status: dispute.status,
    raisedFrom: dispute.raised_from,
    outcome: dispute.outcome ?? "",
    requesterAmountCents: BigInt(dispute.requester_amount_cents ?? 0),
    operatorAmountCents: BigInt(dispute.operator_amount_cents ?? 0),
    resolutionNote: dispute.resolution_note ?? "",
    resolvedBy: dispute.resolved_by ?? "",
    createdAt: timestampFromDate(dispute.created_at),
    resolvedAt: optionalTimestamp(dispute.resolved_at),
    requesterAccountId: dispute.requester_account_id,
    operatorId: dispute.operator_id,
  });
}

/** The whole Experiment: the row with its issues and dispute (a record or a view of one). */
export function experimentMessage(row: ExperimentView): Experiment {
  const estimate = estimateOf(row);
  return create(ExperimentSchema, {
    id: row.id,
    requesterAccountId: row.requester_account_id,
    status: statusMessage(row.status),
    experimentType: row.experiment_type ?? "",
    title: row.title ?? "",
    requestJson: row.request_json,
    estimate: estimate ? estimateMessage(estimate) : undefined,
    reviewReasons: [...row.review_reasons],
    operator: row.operator_id
      ? create(OperatorAssignmentSchema, {
          operatorId: row.operator_id,
          labName: row.operator_lab_name ?? "",
          claimedAt: optionalTimestamp(row.claimed_at),
          deadline: optionalTimestamp(row.deadline),
          operatorAccountId: row.operator_account_id ?? "",
          estimatedStartDate: row.estimated_start_date ?? "",
          notes: row.claim_notes ?? "",
        })
      : undefined,
    cancellation: row.cancelled_at
      ? create(CancellationSchema, {
          reason: row.cancel_reason ?? "",
          refundAmountCents: BigInt(row.refund_cents ?? 0),
          operatorCompensationCents: BigInt(row.operator_compensation_cents ?? 0),
          refundStatus: row.refund_status ?? "none",
          cancelledAt: timestampFromDate(row.cancelled_at),
        })
      : undefined,
    protocolProposalJson: proposalJson(row),
    protocolProposal: proposalMessage(row),
    version: BigInt(row.version),
    createdAt: timestampFromDate(row.created_at),
    updatedAt: timestampFromDate(row.updated_at),
    submittedAt: optionalTimestamp(row.submitted_at),
    safetyFlags: [...row.safety_flags],
    holdAmountCents: BigInt(row.hold_cents),
    payment: create(PaymentSchema, {
      status: row.payment_status,
      heldCents: BigInt(row.payment_held_cents),
      releasedCents: BigInt(row.payment_released_cents),
      refundedCents: BigInt(row.payment_refunded_cents),
      stillHeldCents: BigInt(row.payment_still_held_cents),
      updatedAt: optionalTimestamp(row.payment_updated_at),
    }),
    issues: row.issues.map(operatorIssueMessage),
    dispute: row.dispute ? disputeMessage(row.dispute) : undefined,
    startedAt: optionalTimestamp(row.started_at),
    resultsSubmittedAt: optionalTimestamp(row.results_submitted_at),
    completedAt: optionalTimestamp(row.completed_at),
    approval: row.approved_at
      ? create(ApprovalSchema, {
          rating: row.approval_rating ?? 0,
          feedback: row.approval_feedback ?? "",
          approvedAt: timestampFromDate(row.approved_at),
        })
      : undefined,
    job: jobMessage(
      row.job ?? jobOf({ job: null, request: JSON.parse(row.request_json) as ExperimentRow["request"] }),
    ),
    sourceHypothesisId: row.source_hypothesis_id ?? "",
    availableActions: actionsFrom(row.status).map((action) => EXPERIMENT_ACTION_BY_NAME[action]),
  });
}

export function issueMessage(issue: {
  path: string;
  code: string;
  message: string;
  suggestion?: string;
}): RequestIssue {
  return create(RequestIssueSchema, {
    path: issue.path,
    code: issue.code,
    message: issue.message,
    suggestion: issue.suggestion ?? "",
  });
}
