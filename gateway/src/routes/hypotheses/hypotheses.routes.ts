import { createRoute, z } from "@hono/zod-openapi";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { authenticatedAccess } from "../../lib/access.js";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "../../lib/catalog.js";
import { idempotencyKeyParameter } from "../../lib/idempotency-key.js";
import {
  errorResponses,
  jsonBody,
  jsonResponse,
  optionalJsonBody,
  lookupErrors,
  responseHeaders,
} from "../../lib/openapi.js";
import { ExperimentSchema } from "../experiments/experiments.schemas.js";
import { queryInt } from "../../lib/query.js";
import { dateTime } from "../../lib/schema-shapes.js";

/*
 * The hypotheses service validates every field (lengths, the JSON objects' sizes, the
 * status rules) and names the offending field; the gateway checks only the JSON types, so
 * each limit is stated once. The descriptions give the limits the service applies.
 */

const HYPOTHESIS_STATUSES = ["DRAFT", "USED", "ARCHIVED"] as const;
const object = (description: string) => z.record(z.string(), z.unknown()).openapi({ description });

export const HypothesisSchema = z
  .object({
    id: z.string().openapi({ example: "hyp_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    title: z.string(),
    statement: z.string(),
    null_hypothesis: z.string().nullable(),
    experiment_type: z
      .string()
      .nullable()
      .openapi({ enum: [...EXPERIMENT_TYPES, null], description: "null when none was given" }),
    status: z.string().openapi({
      enum: [...HYPOTHESIS_STATUSES],
      description:
        "DRAFT when saved; USED once an experiment was created from it; ARCHIVED after DELETE (or PATCH status ARCHIVED)",
    }),
    intake_draft: object("The partial experiment request saved with it").nullable(),
    experiments_count: z.int().openapi({ description: "Experiments created from it" }),
    engine_agent: z.string().nullable().openapi({ description: "Engine-sourced: the agent type used" }),
    engine_query: z.string().nullable().openapi({ description: "Engine-sourced: the original query" }),
    engine_response: object("Engine-sourced: the full engine response").nullable(),
    source_experiment_id: z.string().nullable().openapi({
      description: "Saved from a submitted experiment (POST /hypotheses/from-experiment): its id",
    }),
    created_at: dateTime(),
    updated_at: dateTime(),
  })
  .openapi("Hypothesis");

export const CreateHypothesisBodySchema = z
  .strictObject({
    title: z
      .string()
      .openapi({ description: "Required, 1 to 200 characters", example: "Drug X lowers GENE1" }),
    statement: z.string().openapi({ description: "Required, 1 to 5,000 characters" }),
    null_hypothesis: z.string().nullable().optional().openapi({ description: "At most 5,000 characters" }),
    experiment_type: z.enum(EXPERIMENT_TYPES).nullable().optional(),
    intake_draft: object("A partial experiment request, at most 64 KiB as JSON").nullable().optional(),
    engine_agent: z.string().nullable().optional().openapi({ description: "At most 100 characters" }),
    engine_query: z.string().nullable().optional().openapi({ description: "At most 5,000 characters" }),
    engine_response: object("The engine's response, at most 256 KiB as JSON").nullable().optional(),
  })
  .openapi("CreateHypothesisRequest");

export const UpdateHypothesisBodySchema = z
  .strictObject({
    title: z.string().optional().openapi({ description: "1 to 200 characters" }),
    statement: z.string().optional().openapi({ description: "1 to 5,000 characters" }),
    status: z
      .string()
      .optional()
      .openapi({ enum: ["ARCHIVED"], description: "Only ARCHIVED" }),
  })
  .openapi("UpdateHypothesisRequest");

export const ListHypothesesQuerySchema = z.object({
  status: z
    .enum(HYPOTHESIS_STATUSES)
    .optional()
    .openapi({ description: "Only this status; without it every status except ARCHIVED" }),
  experiment_type: z.enum(EXPERIMENT_TYPES).optional(),
  search: z.string().max(200).optional().openapi({
    description: "Case-insensitive substring of the title or the statement (% and _ match themselves)",
  }),
  limit: queryInt(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
  offset: queryInt(0, 1_000_000, 0),
});

export const HypothesisListSchema = z
  .object({
    hypotheses: z.array(HypothesisSchema),
    total: z.int(),
    limit: z.int(),
    offset: z.int(),
  })
  .openapi("HypothesisList");

export const ArchivedHypothesisSchema = z
  .object({ id: z.string(), status: z.string().openapi({ enum: ["ARCHIVED"] }) })
  .openapi("ArchivedHypothesis");

export const HypothesisIdParamsSchema = z.object({
  hypothesis_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "hypothesis_id", in: "path" }, example: "hyp_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
});

const NOT_FOUND =
  "No hypothesis with this id in your library (not_found); another account's is not found too";
const INVALID_STATE =
  "The hypothesis is not a DRAFT (invalid_state, with details.status and details.allowed_from [DRAFT])";

export const createHypothesis = createRoute({
  method: "post",
  path: "/hypotheses",
  operationId: "createHypothesis",
  tags: ["Hypotheses"],
  summary: "Save a hypothesis (entered by hand or from the engine) in your library",
  ...authenticatedAccess,
  request: {
    body: jsonBody(CreateHypothesisBodySchema),
  },
  responses: {
    201: {
      description: "The saved hypothesis: DRAFT, experiments_count 0",
      headers: {
        ...responseHeaders(),
        Location: { description: "/hypotheses/{hypothesis_id}", schema: { type: "string" } },
      },
      content: { "application/json": { schema: HypothesisSchema } },
    },
    ...errorResponses({ authenticated: true, body: true }),
  },
});

export const listHypotheses = createRoute({
  method: "get",
  path: "/hypotheses",
  operationId: "listHypotheses",
  tags: ["Hypotheses"],
  summary: "Your hypotheses, newest first; ARCHIVED ones only when asked for by status",
  ...authenticatedAccess,
  request: { query: ListHypothesesQuerySchema },
  responses: {
    200: jsonResponse("A page of your hypotheses", HypothesisListSchema),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const getHypothesis = createRoute({
  method: "get",
  path: "/hypotheses/{hypothesis_id}",
  operationId: "getHypothesis",
  tags: ["Hypotheses"],
  summary: "One of your hypotheses, with its intake draft and engine metadata",
  ...authenticatedAccess,
  request: { params: HypothesisIdParamsSchema },
  responses: {
    200: jsonResponse("The hypothesis", HypothesisSchema),
    ...lookupErrors(NOT_FOUND),
  },
});

export const updateHypothesis = createRoute({
  method: "patch",
  path: "/hypotheses/{hypothesis_id}",
  operationId: "updateHypothesis",
  tags: ["Hypotheses"],
  summary: "Change the title, statement or status (to ARCHIVED) of a DRAFT hypothesis",
  description:
    "Only the supplied fields change; an empty body changes nothing. Allowed in DRAFT only, an empty body too.",
  ...authenticatedAccess,
  request: {
    params: HypothesisIdParamsSchema,
    body: jsonBody(UpdateHypothesisBodySchema),
  },
  responses: {
    200: jsonResponse("The hypothesis after the change", HypothesisSchema),
    ...lookupErrors(NOT_FOUND, { body: true, extra: { 409: INVALID_STATE } }),
  },
});

export const archiveHypothesis = createRoute({
  method: "delete",
  path: "/hypotheses/{hypothesis_id}",
  operationId: "archiveHypothesis",
  tags: ["Hypotheses"],
  summary: "Archive (soft-delete) one of your hypotheses, from any status",
  description:
    "The record stays readable by id but leaves the default listing. Deleting it again changes nothing.",
  ...authenticatedAccess,
  request: { params: HypothesisIdParamsSchema },
  responses: {
    200: jsonResponse("The hypothesis is archived", ArchivedHypothesisSchema),
    ...lookupErrors(NOT_FOUND),
  },
});

export const ToExperimentBodySchema = z
  .strictObject({
    additional_fields: object(
      "Merged (deeply: objects merge, other values replace) over the request built from the hypothesis: its intake_draft, experiment_type, title, and hypothesis {statement, null_hypothesis}. E.g. privacy, compliance, turnaround_budget. At most 64 KiB as JSON.",
    ).optional(),
  })
  .openapi("HypothesisToExperimentRequest");

export const FromExperimentBodySchema = z
  .strictObject({
    experiment_id: z.string().min(1).max(64).openapi({ example: "exp_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    title: z
      .string()
      .optional()
      .openapi({ description: "At most 200 characters; default: the experiment's title" }),
  })
  .openapi("HypothesisFromExperimentRequest");

export const hypothesisToExperiment = createRoute({
  method: "post",
  path: "/hypotheses/{hypothesis_id}/to-experiment",
  operationId: "hypothesisToExperiment",
  tags: ["Hypotheses"],
  summary: "Create an experiment from one of your hypotheses; the hypothesis becomes USED",
  description:
    "The request is the hypothesis's intake_draft with its experiment_type, title and hypothesis {statement, null_hypothesis}, and additional_fields merged on top; the experiments service validates, estimates and stores it exactly as POST /experiments does (so an incomplete draft is 422 with the missing fields). Safe to retry: without an Idempotency-Key, the same call (same hypothesis, same additional_fields) within 24 hours answers with the experiment it created the first time; send a new Idempotency-Key (or other additional_fields) to create another experiment from the same hypothesis. The hypothesis becomes USED and experiments_count counts each experiment once, shortly after the answer (the hypotheses service records it from the experiment's ExperimentSubmitted event): a GET /hypotheses/{hypothesis_id} made at once may still show it as it was.",
  ...authenticatedAccess,
  parameters: [
    idempotencyKeyParameter(
      "Optional: your own retry key for this call (scoped to the hypothesis, kept 24 hours). The same key with the same body replays the first answer; with another body it is 422 idempotency_key_reused.",
    ),
  ],
  request: {
    params: HypothesisIdParamsSchema,
    body: optionalJsonBody(ToExperimentBodySchema),
  },
  responses: {
    201: {
      description:
        "The experiment created from the hypothesis (or, for a retry, the one created the first time)",
      headers: {
        ...responseHeaders(),
        Location: { description: "The experiment's path", schema: { type: "string" } },
        "Idempotent-Replayed": {
          description: "true when this answers a retry with the experiment created earlier",
          schema: { type: "string", enum: ["true"] },
        },
      },
      content: { "application/json": { schema: ExperimentSchema } },
    },
    ...lookupErrors(NOT_FOUND, {
      body: true,
      extra: {
        403: "Rejected for safety (safety_rejected, with details.safety_flags), as POST /experiments",
        409: "The hypothesis is ARCHIVED (invalid_state, details.allowed_from [DRAFT, USED]), or the same retry is still being processed (retry it)",
        422: "The request built from the hypothesis is invalid (validation_failed, details.errors name the missing or wrong fields: add them in additional_fields), or the Idempotency-Key is malformed or was used with another body",
      },
    }),
  },
});

export const hypothesisFromExperiment = createRoute({
  method: "post",
  path: "/hypotheses/from-experiment",
  operationId: "hypothesisFromExperiment",
  tags: ["Hypotheses"],
  summary: "Save the hypothesis of one of your submitted experiments in your library",
  description:
    "The new hypothesis is DRAFT with the experiment's statement, null hypothesis and type, and its request (without communication preferences) as intake_draft, ready to be edited and turned into the next experiment.",
  ...authenticatedAccess,
  request: {
    body: jsonBody(FromExperimentBodySchema),
  },
  responses: {
    201: {
      description: "The saved hypothesis (DRAFT, source_experiment_id set)",
      headers: {
        ...responseHeaders(),
        Location: { description: "/hypotheses/{hypothesis_id}", schema: { type: "string" } },
      },
      content: { "application/json": { schema: HypothesisSchema } },
    },
    ...errorResponses({
      authenticated: true,
      body: true,
      notFound: "No such experiment of yours (not_found)",
      extra: { 409: "The experiment is still a draft (invalid_state)" },
    }),
  },
});
