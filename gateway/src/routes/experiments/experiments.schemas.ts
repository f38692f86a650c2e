/**
 * The shapes of experiments in the public API (also used by the validation, results,
 * hypotheses, staff and other routes): the OpenAPI document's Experiment, its summary, links,
 * estimate, pagination, and the bodies and parameters of the experiments routes.
 */
import { z } from "@hono/zod-openapi";
import {
  CAPACITY_LEVELS,
  DISPUTE_OUTCOMES,
  DISPUTE_REASONS,
  DISPUTE_STATUSES,
  EXPERIMENT_STATUSES,
  ISSUE_SEVERITIES,
} from "@petri/contracts/vocabulary";
import { requestFieldDocumentation } from "../../lib/experiment-request.js";
import { idempotencyKeyParameter } from "../../lib/idempotency-key.js";
import { cursorPageQuery, includeTotalQuery } from "../../lib/pagination.js";
import { queryFlag } from "../../lib/query.js";
import { dateTime } from "../../lib/schema-shapes.js";
import { ProtocolProposalSchema } from "./protocol-proposal.schemas.js";

// ---------------------------------------------------------------------------------------
// Shared shapes (also used by the validation and staff-review routes)

const usd = (description: string) =>
  z.number().openapi({ description: `${description} (USD, at most two decimals)`, example: 412.5 });

export const ExperimentStatusSchema = z.enum(EXPERIMENT_STATUSES).openapi("ExperimentStatus", {
  description:
    "draft -> pending_review or open -> claimed -> in_progress -> pending_approval -> completed (or disputed -> resolved); cancelled from draft, pending_review, open, claimed or in_progress.",
});

export const ExperimentLinksSchema = z
  .object({
    self: z.string().openapi({ example: "/experiments/exp_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    results: z.string().openapi({ example: "/experiments/exp_01jd0c6r5v8q2m7x4k9w3t1b6n/results" }),
    cancel: z.string().openapi({
      description: "DELETE this path (with a reason) to cancel",
      example: "/experiments/exp_01jd0c6r5v8q2m7x4k9w3t1b6n",
    }),
    approve: z.string().optional().openapi({
      description: "POST here to approve the results (only while pending_approval)",
      example: "/experiments/exp_01jd0c6r5v8q2m7x4k9w3t1b6n/approve",
    }),
    dispute: z.string().optional().openapi({
      description:
        "POST here to dispute the results (while pending_approval, and while completed within the dispute window)",
      example: "/experiments/exp_01jd0c6r5v8q2m7x4k9w3t1b6n/dispute",
    }),
  })
  .openapi("ExperimentLinks");

export const RequestErrorSchema = z
  .object({
    path: z
      .string()
      .openapi({ description: "Path of the field in the request", example: "hypothesis.statement" }),
    code: z.string().openapi({
      description: "missing_required, invalid_value, invalid_experiment_type or safety_violation",
      example: "missing_required",
    }),
    message: z.string(),
  })
  .openapi("RequestError");

export const RequestWarningSchema = z
  .object({
    path: z.string().openapi({ example: "replicates.technical" }),
    code: z.string().openapi({ description: "A rule id, e.g. low_replicates", example: "low_replicates" }),
    message: z.string(),
    suggestion: z.string().nullable().openapi({ description: "How to fix it, when there is a suggestion" }),
  })
  .openapi("RequestWarning");

export const EstimateSchema = z
  .object({
    estimated_cost_usd: z.object({ low: usd("Low"), typical: usd("Typical"), high: usd("High") }),
    estimated_turnaround_days: z.object({
      standard: z.int().openapi({ description: "Days at standard priority" }),
      expedited: z.int().openapi({ description: "Days at expedited priority" }),
    }),
    cost_breakdown: z
      .object({
        materials: usd("Materials"),
        labor: usd("Labor"),
        equipment: usd("Equipment"),
        platform_fee: usd("Platform fee"),
        privacy_premium: usd("Privacy premium"),
      })
      .openapi({ description: "The parts of the typical cost" }),
    operator_availability: z.enum(CAPACITY_LEVELS).openapi({
      description:
        "high (many qualified operators), medium (some), low (few, may take longer), none (no operator matches)",
    }),
  })
  .openapi("Estimate");

export const ExperimentSubmissionSchema = z
  .object({
    experiment_id: z.string().openapi({ example: "exp_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    status: ExperimentStatusSchema,
    created_at: dateTime(),
    estimated_cost_usd: z
      .number()
      .nullable()
      .openapi({ description: "Typical cost in USD (null for a draft that cannot be estimated yet)" }),
    estimated_turnaround_days: z
      .int()
      .nullable()
      .openapi({ description: "Turnaround in days at the request's priority (null like the cost)" }),
    links: ExperimentLinksSchema,
    warnings: z
      .array(RequestWarningSchema)
      .openapi({ description: "Findings that do not block the request" }),
  })
  .openapi("ExperimentSubmission");

export const ExperimentSummarySchema = z
  .object({
    experiment_id: z.string(),
    status: ExperimentStatusSchema,
    experiment_type: z.string(),
    title: z.string(),
    estimated_cost_usd: z.number().nullable().openapi({ description: "Typical cost in USD" }),
    estimated_turnaround_days: z.int().nullable(),
    review_reasons: z.array(z.string()).openapi({
      description:
        "Why staff review it (pending_review): protocol_design_requested, custom_protocol, bsl2_human_derived_material, flagged_hazard",
    }),
    created_at: dateTime(),
    updated_at: dateTime(),
    links: ExperimentLinksSchema,
  })
  .openapi("ExperimentSummary");

export const OperatorIssueSchema = z
  .object({
    issue_id: z.string().openapi({ example: "iss_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    description: z.string(),
    severity: z.string().openapi({ enum: [...ISSUE_SEVERITIES] }),
    reported_at: dateTime().nullable(),
  })
  .openapi("OperatorIssue");

export const DisputeSchema = z
  .object({
    dispute_id: z.string().openapi({ example: "dsp_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    experiment_id: z.string(),
    reason: z.string().openapi({ enum: [...DISPUTE_REASONS] }),
    description: z.string(),
    evidence_urls: z.array(z.string()),
    status: z.string().openapi({ enum: [...DISPUTE_STATUSES], description: "open until staff resolve it" }),
    raised_from: z.string().openapi({
      description: "The experiment's status when it was raised: pending_approval or completed",
    }),
    outcome: z
      .string()
      .nullable()
      .openapi({
        enum: [...DISPUTE_OUTCOMES, null],
        description:
          "Once resolved: requester (the held amount goes back), operator (it is released to the lab) or split",
      }),
    requester_amount_usd: usd("Returned to the requester by the resolution").nullable(),
    operator_amount_usd: usd("Paid to the operator by the resolution").nullable(),
    resolution_note: z.string().nullable().openapi({ description: "Staff's explanation of the resolution" }),
    created_at: dateTime().nullable(),
    resolved_at: dateTime().nullable(),
  })
  .openapi("Dispute");

export const ExperimentSchema = z
  .object({
    experiment_id: z.string(),
    status: ExperimentStatusSchema,
    experiment_type: z.string(),
    title: z.string(),
    requester_account_id: z.string(),
    request: z.record(z.string(), z.unknown()).openapi({
      description:
        "The normalised request: every default applied and one spelling of each field (see ExperimentRequest)",
    }),
    estimate: EstimateSchema.nullable(),
    hold_amount_usd: usd(
      "Held in escrow for it: the typical estimate at submission, re-estimated by a PATCH; 0 for a draft",
    ),
    payment: z
      .object({
        status: z.string().openapi({
          description:
            "not_held, held, released, refunded, partially_refunded, disputed or resolved (the escrow ledger's last report)",
        }),
        held_usd: usd("Put in escrow"),
        released_usd: usd("Released to the operator on approval"),
        refunded_usd: usd("Returned to the requester"),
        still_held_usd: usd("Still in escrow"),
      })
      .nullable()
      .openapi({
        description:
          "The escrow state as the marketplace ledger last reported it (null before its first report); GET /experiments/{experiment_id}/payment has the postings",
      }),
    operator: z
      .object({
        operator_id: z.string(),
        lab_name: z.string(),
        claimed_at: dateTime().nullable(),
        deadline: dateTime("When the results are due").nullable(),
        estimated_start_date: z.string().nullable().openapi({
          format: "date",
          description: "When the lab expected to start, as it said when claiming",
        }),
      })
      .nullable()
      .openapi({ description: "The lab that claimed it (null until claimed)" }),
    issues: z.array(OperatorIssueSchema).openapi({ description: "Issues the lab reported, oldest first" }),
    approval: z
      .object({
        rating: z.int().min(1).max(5).nullable().openapi({ description: "1-5, null when none was given" }),
        feedback: z.string().nullable(),
        approved_at: dateTime().nullable(),
      })
      .nullable()
      .openapi({ description: "The requester's approval of the results (null until approved)" }),
    dispute: DisputeSchema.nullable().openapi({ description: "The dispute, once one is raised" }),
    review_reasons: z.array(z.string()),
    safety_flags: z.array(z.string()).openapi({
      description: "Safety flags that did not reject the request (e.g. human_subjects), for staff review",
    }),
    protocol_proposal: ProtocolProposalSchema.nullable().openapi({
      description: "For protocol_design_requested: the latest staff proposal and its discussion",
    }),
    cancellation: z
      .object({
        reason: z.string(),
        refund_amount_usd: usd("Refunded to the requester"),
        operator_compensation_usd: usd("Paid to the operator"),
        refund_status: z.string().openapi({ description: "full, partial or none" }),
        cancelled_at: dateTime().nullable(),
      })
      .nullable(),
    source_hypothesis_id: z.string().nullable().openapi({
      description:
        "The library hypothesis it was created from (POST /hypotheses/{hypothesis_id}/to-experiment)",
    }),
    created_at: dateTime(),
    updated_at: dateTime(),
    submitted_at: dateTime("When it left draft (null for a draft)").nullable(),
    started_at: dateTime("When the lab started work (null before)").nullable(),
    results_submitted_at: dateTime("When the lab submitted results (null before)").nullable(),
    completed_at: dateTime("When the requester approved the results (null before)").nullable(),
    links: ExperimentLinksSchema,
  })
  .openapi("Experiment");

const cursorFields = {
  cursor: z
    .string()
    .nullable()
    .openapi({ description: "Pass as ?cursor= for the next page; null on the last page" }),
  has_more: z.boolean(),
};

export const PaginationSchema = z
  .object({
    total: z.int().openapi({ description: "Matching items in all pages" }),
    ...cursorFields,
  })
  .openapi("CursorPagination");

/**
 * Pagination of a list whose total is counted only on ?include_total=true. Its own object, not
 * an extension of CursorPagination: the document would render an extension as allOf with the
 * integer `total`, and no null could match both.
 */
export const OptionalTotalPaginationSchema = z
  .object({
    total: z.int().nullable().openapi({
      description:
        "Matching items in all pages: counted when the request says include_total=true, else null (except on a first page that holds every match)",
    }),
    ...cursorFields,
  })
  .openapi("CursorPaginationOptionalTotal");

export const ExperimentIdParamsSchema = z.object({
  experiment_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "experiment_id", in: "path" }, example: "exp_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
});

export const createIdempotencyKeyParameter = idempotencyKeyParameter(
  "Makes the create safe to retry (Stripe semantics), scoped to your account and kept 24 hours: the same key with the same body replays the first answer byte for byte (with Idempotent-Replayed: true), the same key with another body is 422 idempotency_key_reused, and a request arriving while the first with its key is still running is 409 (retry it).",
);

// ---------------------------------------------------------------------------------------
// Requests

export const CreateExperimentQuerySchema = z.object({
  draft: queryFlag(
    false,
    "true saves the request as a draft: required fields may still be missing (every value given must be valid); it is not routed, nothing is held, and POST /experiments/{experiment_id}/submit validates it in full later",
  ),
});

export const ListExperimentsQuerySchema = z.object({
  status: ExperimentStatusSchema.optional(),
  created_after: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: "Only experiments created at or after this ISO 8601 time" }),
  created_before: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: "Only experiments created before this ISO 8601 time" }),
  ...cursorPageQuery,
  ...includeTotalQuery,
});

export const ExperimentListSchema = z
  .object({ experiments: z.array(ExperimentSummarySchema), pagination: OptionalTotalPaginationSchema })
  .openapi("ExperimentList");

const patchField = (field: string) =>
  z
    .unknown()
    .optional()
    .openapi(requestFieldDocumentation(field) as object);

export const UpdateExperimentBodySchema = z
  .strictObject({
    constraints: patchField("constraints"),
    turnaround_budget: patchField("turnaround_budget"),
    turnaround_days: patchField("turnaround_days"),
    turnaround_priority: patchField("turnaround_priority"),
    communication_preferences: patchField("communication_preferences"),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message:
      "give at least one of constraints, turnaround_budget, turnaround_days, turnaround_priority, communication_preferences",
    // Only for a body without unknown fields (those are reported on their own).
    when: (payload) => payload.issues.length === 0,
  })
  .openapi("UpdateExperimentRequest", {
    description:
      "A JSON Merge Patch (RFC 7396) of the request: objects merge field by field and null removes a field. The experiments service validates the result like a new request and re-estimates it.",
  });

export const CancelExperimentBodySchema = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .openapi({ description: "Why it is cancelled (required)", example: "funding withdrawn" }),
  })
  .openapi("CancelExperimentRequest");

export const CancelledExperimentSchema = z
  .object({
    experiment_id: z.string(),
    status: ExperimentStatusSchema.openapi({ description: "cancelled" }),
    reason: z.string(),
    refund_amount_usd: usd("Refunded to the requester"),
    refund_status: z.string().openapi({
      description:
        "full (draft, pending_review or open), partial (claimed: the operator keeps a documented share), none (in_progress, or a draft with nothing held)",
    }),
    operator_compensation_usd: usd("Paid to the operator"),
    cancelled_at: dateTime().nullable(),
  })
  .openapi("CancelledExperiment");

export const RequestProtocolChangesBodySchema = z
  .strictObject({
    comments: z
      .string()
      .trim()
      .min(1)
      .max(5000)
      .openapi({ description: "What should change in the proposed protocol" }),
  })
  .openapi("RequestProtocolChangesRequest");
