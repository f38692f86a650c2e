import { createRoute, z } from "@hono/zod-openapi";
import { authenticatedAccess } from "../../lib/access.js";
import { OPERATION_BODY_LIMITS } from "../../lib/body-limit.js";
import { ISSUE_SEVERITIES, TURNAROUND_PRIORITIES } from "@petri/contracts/vocabulary";
import { errorResponses, jsonBody, jsonResponse, lookupErrors } from "../../lib/openapi.js";
import { cursorPageQuery } from "../../lib/pagination.js";
import {
  ExperimentIdParamsSchema,
  ExperimentStatusSchema,
  PaginationSchema,
} from "../experiments/experiments.schemas.js";
import { dateTime } from "../../lib/schema-shapes.js";

export const MatchComponentsSchema = z
  .object({
    capability: z.number().openapi({ description: "Fit of the lab's verified capabilities (0 to 1)" }),
    turnaround: z
      .number()
      .openapi({ description: "Fit of the lab's turnaround to the requested one (0 to 1)" }),
    cost: z.number().openapi({ description: "Fit of the lab's price band to the budget (0 to 1)" }),
    quality: z.number().openapi({ description: "The lab's quality metrics (0 to 1)" }),
  })
  .openapi("MatchComponents", {
    description: "The parts of a match score; weighted capability 35, turnaround 25, cost 25, quality 15",
  });

export const JobSchema = z
  .object({
    experiment_id: z.string().openapi({ example: "exp_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    title: z.string(),
    category: z.string().openapi({
      description: "biochemistry, microbiology, cell_biology, molecular_biology or analytical",
    }),
    budget_usd: z
      .number()
      .nullable()
      .openapi({ description: "The requester's budget ceiling in USD (null when none was stated)" }),
    deadline: z
      .string()
      .nullable()
      .openapi({ format: "date", description: "The requester's hard deadline, if any" }),
    bsl_level: z.string().openapi({ description: "BSL-1 or BSL-2", example: "BSL-2" }),
    equipment_required: z.array(z.string()),
    posted_at: dateTime("When it opened").nullable(),
    experiment_type: z.string(),
    turnaround_priority: z.string().openapi({ enum: [...TURNAROUND_PRIORITIES] }),
    private: z.boolean().openapi({
      description: "A private request: only what a lab needs to decide is shown until it claims the job",
    }),
    match_score: z
      .number()
      .openapi({ description: "How well your lab fits it (0 to 100); the feed is ordered by it" }),
    match: MatchComponentsSchema,
  })
  .openapi("Job");

export const JobListSchema = z
  .object({ jobs: z.array(JobSchema), pagination: PaginationSchema })
  .openapi("JobList");

export const ClaimBodySchema = z
  .strictObject({
    equipment_confirmation: z.boolean().openapi({
      description: "You confirm the lab has the equipment the job requires; false is refused (422)",
    }),
    authorization_confirmation: z.boolean().openapi({
      description:
        "You confirm the lab is authorized for the work (biosafety level, material approvals); false is refused (422)",
    }),
    estimated_start_date: z.iso
      .date()
      .optional()
      .openapi({ description: "When you expect to start (YYYY-MM-DD)", example: "2026-03-09" }),
    notes: z
      .string()
      .max(2000)
      .optional()
      .openapi({ description: "A note for the requester (at most 2000 characters)" }),
  })
  .openapi("ClaimRequest");

export const ClaimSchema = z
  .object({
    experiment_id: z.string(),
    claimed_at: dateTime(),
    deadline: dateTime("When the results are due"),
  })
  .openapi("Claim");

export const StartedSchema = z
  .object({
    experiment_id: z.string(),
    status: ExperimentStatusSchema.openapi({ description: "in_progress" }),
    started_at: dateTime(),
  })
  .openapi("StartedExperiment");

export const ReportIssueBodySchema = z
  .strictObject({
    description: z
      .string()
      .trim()
      .min(1)
      .max(5000)
      .openapi({ description: "What happened (at most 5000 characters)", example: "Contaminated plate 2" }),
    severity: z.enum(ISSUE_SEVERITIES),
  })
  .openapi("ReportIssueRequest");

export const ReportedIssueSchema = z
  .object({
    issue_id: z.string().openapi({ example: "iss_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    experiment_id: z.string(),
    description: z.string(),
    severity: z.string().openapi({ enum: [...ISSUE_SEVERITIES] }),
    reported_at: dateTime(),
  })
  .openapi("ReportedIssue");

export const SubmittedResultsSchema = z
  .object({
    experiment_id: z.string(),
    status: ExperimentStatusSchema.openapi({ description: "pending_approval" }),
    submitted_at: dateTime(),
  })
  .openapi("SubmittedResults");

const OPERATOR_ROLE_NOTE =
  "The experiments service checks that the caller is the verified (active) lab allowed to do this, not the role in the credential: a token issued before the lab's verification still works.";
const NOT_FOUND = "No such experiment, or not one your lab may see (not_found)";
const FORBIDDEN =
  "Your account is not an active verified operator, or not the lab assigned to this experiment (forbidden)";
const INVALID_STATE =
  "The experiment's status does not allow this (invalid_state, with details.status and details.allowed_from)";
const RESULTS_LIMIT_MIB =
  OPERATION_BODY_LIMITS["POST /operator/jobs/{experiment_id}/submit"]! / (1024 * 1024);

export const listJobs = createRoute({
  method: "get",
  path: "/operator/jobs",
  operationId: "listJobs",
  tags: ["Operators"],
  summary: "Open jobs your lab may take, best match first",
  description: `Only experiments your lab passes every hard filter for (verified competency, biosafety level, material approvals, equipment, capacity, vacations), ranked by match score. ${OPERATOR_ROLE_NOTE}`,
  ...authenticatedAccess,
  request: { query: z.object(cursorPageQuery) },
  responses: {
    200: jsonResponse("A page of the job feed", JobListSchema),
    ...errorResponses({
      authenticated: true,
      parameters: true,
      extra: { 403: "Your account is not an active verified operator (forbidden)" },
    }),
  },
});

export const claimJob = createRoute({
  method: "post",
  path: "/operator/jobs/{experiment_id}/claim",
  operationId: "claimJob",
  tags: ["Operators"],
  summary: "Claim an open job: open -> claimed (exactly one of concurrent claims wins)",
  description: `Both confirmations are required and must be true. The requester is notified (claimed). ${OPERATOR_ROLE_NOTE}`,
  ...authenticatedAccess,
  request: {
    params: ExperimentIdParamsSchema,
    body: jsonBody(ClaimBodySchema),
  },
  responses: {
    200: jsonResponse("The claim", ClaimSchema),
    ...lookupErrors(NOT_FOUND, {
      body: true,
      extra: {
        403: "Your lab is not eligible for this job: not active, or a hard filter fails (forbidden, with details naming the failed filters)",
        409: `Another lab claimed it first (experiment_already_claimed), or ${INVALID_STATE}`,
        422: "The body is invalid, or a confirmation is false (validation_failed, details.errors [{path, field, code, message}])",
      },
    }),
  },
});

export const startJob = createRoute({
  method: "post",
  path: "/operator/jobs/{experiment_id}/start",
  operationId: "startJob",
  tags: ["Operators"],
  summary: "Start work on a claimed job: claimed -> in_progress",
  description: OPERATOR_ROLE_NOTE,
  ...authenticatedAccess,
  request: { params: ExperimentIdParamsSchema },
  responses: {
    200: jsonResponse("The job, now in progress", StartedSchema),
    ...lookupErrors(NOT_FOUND, { extra: { 403: FORBIDDEN, 409: INVALID_STATE } }),
  },
});

export const reportIssue = createRoute({
  method: "post",
  path: "/operator/jobs/{experiment_id}/issues",
  operationId: "reportIssue",
  tags: ["Operators"],
  summary: "Report an issue with a claimed or running job (the requester is notified)",
  description: OPERATOR_ROLE_NOTE,
  ...authenticatedAccess,
  request: {
    params: ExperimentIdParamsSchema,
    body: jsonBody(ReportIssueBodySchema),
  },
  responses: {
    201: jsonResponse("The reported issue", ReportedIssueSchema),
    ...lookupErrors(NOT_FOUND, {
      body: true,
      extra: {
        403: FORBIDDEN,
        409: `${INVALID_STATE}, or the experiment has as many issues as it may hold`,
      },
    }),
  },
});

export const submitResults = createRoute({
  method: "post",
  path: "/operator/jobs/{experiment_id}/submit",
  operationId: "submitResults",
  tags: ["Operators"],
  summary: "Submit the results: in_progress (or claimed) -> pending_approval",
  description: `The body (docs/api.md) carries the files base64-encoded and may be up to ${RESULTS_LIMIT_MIB} MiB. It is read as a stream: each file is passed to the experiments service in pieces as it arrives, which decodes, checks and stores it, and validates the other fields. The requester is notified (completed) and can read the results with signed file URLs. ${OPERATOR_ROLE_NOTE}`,
  ...authenticatedAccess,
  request: {
    params: ExperimentIdParamsSchema,
    // A reference, not the schema: with a schema the router would parse the whole body before
    // the handler, which reads it as a stream instead (the component is registered by the router).
    body: {
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/ResultsSubmission" } } },
    },
  },
  responses: {
    200: jsonResponse("The submission", SubmittedResultsSchema),
    ...lookupErrors(NOT_FOUND, {
      body: true,
      extra: {
        403: FORBIDDEN,
        409: INVALID_STATE,
        413: `The body is larger than ${RESULTS_LIMIT_MIB} MiB, or a file in it is larger than the service accepts (payload_too_large)`,
        422: "The results are invalid, e.g. a file is not valid base64, the body is not JSON, nests deeper than 64 levels or holds a NUL or a lone surrogate in a string (validation_failed, details.errors [{path, field, code, message}])",
      },
    }),
  },
});
