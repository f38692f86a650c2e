/**
 * Marketplace messages -> the public JSON: operator records, the job feed, lab matches,
 * an experiment's escrow and the ledger check. Pure functions with a fixed key order;
 * amounts go through money.ts, the profile and verification record are written from their
 * messages by @petri/contracts/rest-json (or their JSON text passed on, from a service built
 * before them).
 */
import {
  type CheckLedgerResponse,
  type ExperimentPayment,
  type Job,
  type LabMatch,
  type MatchComponents,
  type Operator,
  OperatorProfileSchema,
  type Posting,
  type QualityMetrics,
  VerificationRecordSchema,
} from "@petri/contracts/marketplace";
import { typedOrText } from "./json-text.js";
import { centsToUsd } from "./money.js";
import { isoOrNull } from "./timestamps.js";

function qualityJson(quality: QualityMetrics | undefined) {
  if (!quality) return null;
  return {
    on_time_rate: quality.onTimeRate,
    rerun_rate: quality.rerunRate,
    dispute_rate: quality.disputeRate,
    // The service reports 0 before the first rating; 0 is not a rating (1-5).
    average_rating: quality.ratingsCount > 0 ? quality.averageRating : null,
    ratings_count: quality.ratingsCount,
    total_jobs_completed: quality.totalJobsCompleted,
  };
}

/** An operator (lab) record: GET/POST /operator/profile and the /admin/operators routes. */
export function operatorJson(operator: Operator | undefined) {
  if (!operator) throw new Error("the marketplace service returned no operator");
  return {
    operator_id: operator.id,
    account_id: operator.accountId,
    lab_name: operator.labName,
    status: operator.status,
    status_reason: operator.statusReason || null,
    // Typed since D336; the JSON text from a service built before it.
    profile:
      typedOrText(OperatorProfileSchema, operator.profile, operator.profileJson, {
        service: "marketplace",
        what: "a profile",
      }) ?? {},
    verification: typedOrText(VerificationRecordSchema, operator.verification, operator.verificationJson, {
      service: "marketplace",
      what: "a verification record",
    }),
    quality: qualityJson(operator.quality),
    active_jobs: operator.activeJobs,
    created_at: isoOrNull(operator.createdAt) ?? "",
    updated_at: isoOrNull(operator.updatedAt) ?? "",
  };
}

function componentsJson(components: MatchComponents | undefined) {
  return {
    capability: components?.capability ?? 0,
    turnaround: components?.turnaround ?? 0,
    cost: components?.cost ?? 0,
    quality: components?.quality ?? 0,
  };
}

/** An item of GET /operator/jobs. */
export function jobJson(job: Job) {
  return {
    experiment_id: job.experimentId,
    title: job.title,
    category: job.category,
    // 0 means the requester stated no ceiling (a budget is at least 50 USD when given).
    budget_usd: job.budgetCents > 0n ? centsToUsd(job.budgetCents) : null,
    deadline: job.deadline || null,
    bsl_level: job.bslLevel,
    equipment_required: [...job.equipmentRequired],
    posted_at: isoOrNull(job.postedAt),
    experiment_type: job.experimentType,
    turnaround_priority: job.turnaroundPriority,
    private: job.private,
    match_score: job.matchScore,
    match: componentsJson(job.match),
  };
}

/** An item of GET /experiments/{id}/matches; failed_filters only for an ineligible lab. */
export function labMatchJson(match: LabMatch) {
  return {
    operator_id: match.operatorId,
    lab_name: match.labName,
    score: match.score,
    components: componentsJson(match.components),
    eligible: match.eligible,
    ...(match.failedFilters.length > 0 && { failed_filters: [...match.failedFilters] }),
  };
}

function postingJson(posting: Posting) {
  return {
    kind: posting.kind,
    posted_at: isoOrNull(posting.postedAt),
    entries: posting.entries.map((entry) => ({
      account: entry.account,
      amount_usd: centsToUsd(entry.amountCents),
    })),
  };
}

/** GET /experiments/{id}/payment: the escrow summary and its postings. */
export function paymentAnswerJson(payment: ExperimentPayment | undefined, postings: readonly Posting[]) {
  if (!payment) throw new Error("the marketplace service returned no payment");
  return {
    experiment_id: payment.experimentId,
    status: payment.status,
    held_usd: centsToUsd(payment.heldCents),
    released_usd: centsToUsd(payment.releasedCents),
    refunded_usd: centsToUsd(payment.refundedCents),
    compensated_usd: centsToUsd(payment.compensatedCents),
    returned_to_requester_usd: centsToUsd(payment.returnedToRequesterCents),
    paid_to_operator_usd: centsToUsd(payment.paidToOperatorCents),
    still_held_usd: centsToUsd(payment.stillHeldCents),
    postings: postings.map(postingJson),
  };
}

/** GET /admin/ledger: the conservation check over every experiment. */
export function ledgerJson(check: CheckLedgerResponse) {
  return {
    balanced: check.balanced,
    experiments: Number(check.experiments),
    held_usd: centsToUsd(check.heldCents),
    released_usd: centsToUsd(check.releasedCents),
    refunded_usd: centsToUsd(check.refundedCents),
    compensated_usd: centsToUsd(check.compensatedCents),
    dispute_to_requester_usd: centsToUsd(check.disputeToRequesterCents),
    dispute_to_operator_usd: centsToUsd(check.disputeToOperatorCents),
    still_held_usd: centsToUsd(check.stillHeldCents),
    violations: [...check.violations],
  };
}
