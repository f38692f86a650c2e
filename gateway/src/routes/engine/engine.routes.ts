import { createRoute, z } from "@hono/zod-openapi";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { authenticatedAccess } from "../../lib/access.js";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "../../lib/catalog.js";
import { errorResponses, jsonBody, jsonResponse, lookupErrors, responseHeaders } from "../../lib/openapi.js";
import { queryInt } from "../../lib/query.js";
import { dateTime } from "../../lib/schema-shapes.js";

/*
 * The engine service validates every field (query 1-4,000 characters, context up to 8,000,
 * the edited texts up to 5,000) and names the offending one; the gateway checks the JSON types.
 */

const RUN_STATUSES = ["PENDING", "RUNNING", "COMPLETED", "FAILED"] as const;
const JOB_TYPES = ["hypothesis_generation", "literature_review"] as const;
const TAG = "Hypothesis engine";

const HypothesisTextSchema = z
  .object({
    statement: z.string(),
    null_hypothesis: z.string(),
    rationale: z.string().openapi({
      description: "Why the hypothesis reads as it does; the offline engine says it is a template rationale",
    }),
  })
  .openapi("EngineHypothesis");

const SourceSchema = z
  .object({
    title: z.string(),
    doi: z.string().openapi({ description: "Resolved at doi.org; its registered title matched" }),
    relevance: z
      .string()
      .openapi({ description: "Why it is listed (e.g. its rank in the literature search)" }),
    provider: z.string().openapi({ example: "europepmc" }),
    retrieved_by: z.string().openapi({ description: "The search query that retrieved it" }),
    verification: z
      .object({
        doi_resolves: z.boolean(),
        title_similarity: z.number(),
        registered_title: z.string(),
        checked_at: dateTime(),
      })
      .openapi({ description: "How the source was checked before it was shown" }),
  })
  .openapi("EngineSource");

const ReasoningStepSchema = z
  .object({ step: z.int(), action: z.string(), summary: z.string() })
  .openapi("EngineReasoningStep");

export const EngineResultSchema = z
  .object({
    hypothesis: HypothesisTextSchema,
    experiment_type: z.string().openapi({ enum: [...EXPERIMENT_TYPES] }),
    intake_draft: z.record(z.string(), z.unknown()).openapi({
      description:
        "A POST /experiments body that passes POST /validate; check the placeholders named in notes",
    }),
    reasoning_trace: z.array(ReasoningStepSchema).openapi({
      description: "What the engine did, step by step: the rules that fired, the search, the LLM call",
    }),
    sources: z.array(SourceSchema).openapi({
      description:
        "Only sources that were retrieved and verified; empty when the engine is not literature-grounded",
    }),
    engine: z.string().openapi({ example: "offline-rules@1" }),
    literature_grounded: z.boolean(),
    notes: z
      .array(z.string())
      .openapi({ description: "Placeholders to check, missing inputs, what was not done" }),
  })
  .openapi("EngineResult");

const ProgressSchema = z
  .object({
    stage: z.string().openapi({
      description:
        "queued, parsing, entity_extraction, classification, literature_search, drafting, done (or failed)",
    }),
    percentage: z.number().min(0).max(100),
  })
  .openapi("EngineProgress");

export const EngineRunSchema = z
  .object({
    run_id: z.string().openapi({ example: "run_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    status: z.string().openapi({ enum: [...RUN_STATUSES] }),
    query: z.string(),
    context: z.string().nullable(),
    job_type: z.string().openapi({ enum: [...JOB_TYPES] }),
    experiment_type: z.string().nullable().openapi({
      description: "The type asked for, or once COMPLETED the type the engine chose",
    }),
    progress: ProgressSchema,
    result: EngineResultSchema.nullable().openapi({ description: "COMPLETED: the engine's result" }),
    edited_hypothesis: z
      .object({ statement: z.string(), null_hypothesis: z.string() })
      .nullable()
      .openapi({ description: "Your edit of the drafted hypothesis (PATCH .../draft)" }),
    error: z.string().nullable().openapi({ description: "FAILED: why" }),
    error_code: z.string().nullable().openapi({
      description:
        "FAILED: timeout, interrupted, literature_provider_unavailable, llm_unavailable, llm_invalid_output, llm_rate_limited, literature_unavailable, literature_rate_limited, internal_error",
    }),
    attempts: z.int(),
    created_at: dateTime(),
    started_at: dateTime().nullable(),
    completed_at: dateTime().nullable(),
  })
  .openapi("EngineRun");

export const EngineRunSummarySchema = z
  .object({
    run_id: z.string(),
    query: z.string(),
    status: z.string().openapi({ enum: [...RUN_STATUSES] }),
    job_type: z.string(),
    experiment_type: z.string().nullable(),
    created_at: dateTime(),
    completed_at: dateTime().nullable(),
  })
  .openapi("EngineRunSummary");

const query = () => z.string().openapi({ description: "Required, 1 to 4,000 characters" });
const context = () =>
  z.string().optional().openapi({ description: "Optional background, at most 8,000 characters" });

export const StartRunBodySchema = z
  .strictObject({
    query: query(),
    job_type: z.enum(JOB_TYPES).optional().openapi({ description: "Default hypothesis_generation" }),
    experiment_type: z
      .enum(EXPERIMENT_TYPES)
      .optional()
      .openapi({ description: "Default: the engine chooses" }),
    context: context(),
  })
  .openapi("StartEngineRunRequest");

export const GenerateBodySchema = z
  .strictObject({
    query: query(),
    context: context(),
    experiment_type: z
      .enum(EXPERIMENT_TYPES)
      .optional()
      .openapi({ description: "Default: the engine chooses" }),
  })
  .openapi("GenerateHypothesisRequest");

export const DraftBodySchema = z
  .strictObject({
    edited_hypothesis: z.strictObject({
      statement: z.string().openapi({ description: "1 to 5,000 characters" }),
      null_hypothesis: z.string().openapi({ description: "1 to 5,000 characters, not the statement" }),
    }),
  })
  .openapi("EditEngineDraftRequest");

export const ListRunsQuerySchema = z.object({
  status: z.enum(RUN_STATUSES).optional(),
  limit: queryInt(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
  offset: queryInt(0, 1_000_000, 0),
});

export const RunIdParamsSchema = z.object({
  run_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "run_id", in: "path" }, example: "run_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
});

const NOT_FOUND = "No such run of yours (not_found); another account's run is not found too";

export const generateHypothesis = createRoute({
  method: "post",
  path: "/cloud-labs/engine",
  operationId: "generateHypothesis",
  tags: [TAG],
  summary: "Generate a hypothesis now (synchronous, bounded time)",
  description:
    "Runs the same pipeline as a run and answers within the deployment's limit (default 20 s); nothing is stored. Save the result with POST /hypotheses.",
  ...authenticatedAccess,
  request: { body: jsonBody(GenerateBodySchema) },
  responses: {
    200: jsonResponse("The engine's result", EngineResultSchema),
    ...errorResponses({
      authenticated: true,
      body: true,
      extra: {
        503: "The engine did not answer in time (engine_timeout) or a configured provider failed (llm_unavailable, llm_rate_limited, llm_invalid_output, literature_unavailable, ...); retry, or start a run",
      },
    }),
  },
});

export const startRun = createRoute({
  method: "post",
  path: "/cloud-labs/engine/start",
  operationId: "startEngineRun",
  tags: [TAG],
  summary: "Start an asynchronous engine run",
  description:
    "The run is queued (PENDING) and executed by a worker; poll GET /cloud-labs/engine/runs/{run_id} (or /active) until COMPLETED or FAILED. One active (PENDING or RUNNING) run per account by default: starting another meanwhile is 409 engine_run_active with details.active_run_id. A run that exceeds the time limit (default 120 s) FAILS with error_code timeout; a run whose worker stopped is resumed by another worker, or FAILS with interrupted, never stays RUNNING.",
  ...authenticatedAccess,
  request: { body: jsonBody(StartRunBodySchema) },
  responses: {
    202: {
      description: "Queued: the run (PENDING), with run_id, status, query and created_at",
      headers: {
        ...responseHeaders(),
        Location: { description: "/cloud-labs/engine/runs/{run_id}", schema: { type: "string" } },
      },
      content: { "application/json": { schema: EngineRunSchema } },
    },
    ...errorResponses({
      authenticated: true,
      body: true,
      extra: {
        409: "You already have an active run (engine_run_active, details.active_run_id and details.limit)",
      },
    }),
  },
});

export const getActiveRun = createRoute({
  method: "get",
  path: "/cloud-labs/engine/active",
  operationId: "getActiveEngineRun",
  tags: [TAG],
  summary: "Your active (PENDING or RUNNING) run with its progress, or null",
  ...authenticatedAccess,
  responses: {
    200: jsonResponse("The newest active run, or null when you have none", EngineRunSchema.nullable()),
    ...errorResponses({ authenticated: true }),
  },
});

export const listRuns = createRoute({
  method: "get",
  path: "/cloud-labs/engine/runs",
  operationId: "listEngineRuns",
  tags: [TAG],
  summary: "Your runs, newest first",
  ...authenticatedAccess,
  request: { query: ListRunsQuerySchema },
  responses: {
    200: jsonResponse(
      "A page of your runs",
      z
        .object({ runs: z.array(EngineRunSummarySchema), total: z.int(), limit: z.int(), offset: z.int() })
        .openapi("EngineRunList"),
    ),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const getRun = createRoute({
  method: "get",
  path: "/cloud-labs/engine/runs/{run_id}",
  operationId: "getEngineRun",
  tags: [TAG],
  summary: "One of your runs: progress, and the result (COMPLETED) or the error (FAILED)",
  ...authenticatedAccess,
  request: { params: RunIdParamsSchema },
  responses: {
    200: jsonResponse("The run", EngineRunSchema),
    ...lookupErrors(NOT_FOUND),
  },
});

export const editDraft = createRoute({
  method: "patch",
  path: "/cloud-labs/engine/runs/{run_id}/draft",
  operationId: "editEngineRunDraft",
  tags: [TAG],
  summary: "Keep your edit of a COMPLETED run's hypothesis (the engine's result stays as it was)",
  ...authenticatedAccess,
  request: {
    params: RunIdParamsSchema,
    body: jsonBody(DraftBodySchema),
  },
  responses: {
    200: jsonResponse("The run with edited_hypothesis", EngineRunSchema),
    ...lookupErrors(NOT_FOUND, {
      body: true,
      extra: { 409: "The run is not COMPLETED (invalid_state)" },
    }),
  },
});

export const clearHistory = createRoute({
  method: "post",
  path: "/cloud-labs/engine/runs/clear-history",
  operationId: "clearEngineRunHistory",
  tags: [TAG],
  summary: "Delete all of your runs (an active one is abandoned)",
  ...authenticatedAccess,
  responses: {
    200: jsonResponse(
      "How many runs were deleted",
      z.object({ deleted_count: z.int() }).openapi("EngineClearHistoryResult"),
    ),
    ...errorResponses({ authenticated: true }),
  },
});
