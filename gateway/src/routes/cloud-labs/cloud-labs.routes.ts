import { createRoute, z } from "@hono/zod-openapi";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { authenticatedAccess } from "../../lib/access.js";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, SUPPORTED_BSL_LEVELS } from "../../lib/catalog.js";
import { errorResponses, jsonBody, jsonResponse, lookupErrors, responseHeaders } from "../../lib/openapi.js";
import { queryInt } from "../../lib/query.js";
import { dateTime } from "../../lib/schema-shapes.js";

/*
 * The cloudlabs service reads the intake (a POST /experiments body, possibly partial) and names
 * every problem with its field; the gateway checks the JSON types only.
 */

const TAG = "Cloud labs";
const SUBMISSION_STATUSES = [
  "pending",
  "submitted",
  "queued",
  "running",
  "completed",
  "failed",
  "cancelled",
] as const;
const object = (description: string) => z.record(z.string(), z.unknown()).openapi({ description });
const turnaround = () => z.object({ min: z.int(), max: z.int() }).openapi("TurnaroundDays");
const money = (description: string) => z.number().openapi({ description, example: 245.5 });

export const ProviderSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    protocol_format: z.string().openapi({ enum: ["sll", "autoprotocol"] }),
    supported_experiment_types: z.array(z.string()),
    status: z.string().openapi({ example: "available" }),
  })
  .openapi("CloudLabProviderSummary");

export const ProviderSchema = ProviderSummarySchema.extend({
  description: z.string(),
  capabilities: z.object({
    cell_lines: z.array(z.string()),
    plate_formats: z.array(z.string()),
    detection_methods: z.array(z.string()),
  }),
  pricing: z.object({ base_cost_usd: z.number(), per_sample_usd: z.number() }),
  turnaround_days: turnaround(),
  max_bsl: z.string().openapi({ enum: [...SUPPORTED_BSL_LEVELS] }),
}).openapi("CloudLabProvider");

const IntakeBodySchema = z
  .strictObject({
    intake: object("The experiment request (a POST /experiments body; may be partial)"),
    provider_id: z.string().min(1).max(64),
  })
  .openapi("CloudLabIntakeRequest");

const InterpretBodySchema = z
  .strictObject({
    intake: object("The experiment request (a POST /experiments body; may be partial)"),
    provider_id: z.string().max(64).optional(),
  })
  .openapi("CloudLabInterpretRequest");

export const InterpretationSchema = z
  .object({
    interpretation: z.object({
      experiment_type: z.string().openapi({ enum: [...EXPERIMENT_TYPES] }),
      parameters: z.object({
        organisms: z.array(z.object({ name: z.string(), strain: z.string().nullable() })),
        compounds: z.array(
          z.object({ name: z.string(), concentrations: z.array(z.number()), unit: z.string() }),
        ),
        replicates: z.int(),
        incubation_hours: z.number().nullable(),
        detection_method: z.string().nullable(),
      }),
      confidence: z.number().min(0).max(1),
      notes: z.array(z.string()),
    }),
    interpreter: z
      .string()
      .openapi({ description: "rules (the deterministic interpreter) or the language model used" }),
  })
  .openapi("CloudLabInterpretation");

export const TranslationSchema = z
  .object({
    provider_id: z.string(),
    protocol_format: z.string().openapi({ enum: ["sll", "autoprotocol"] }),
    protocol: object(
      "autoprotocol: {refs, instructions (each with op)}; sll: {name, function, steps (each with operation and its options), text (the rendered SLL)}",
    ),
    estimated_cost_usd: money("From the provider's pricing: base + per sample"),
    estimated_turnaround_days: turnaround(),
    warnings: z.array(z.string()).openapi({ description: "Assay-rule warnings (rule id first, e.g. MIC-N)" }),
  })
  .openapi("CloudLabTranslation");

export const ValidationSchema = z
  .object({
    valid: z.boolean(),
    provider_id: z.string(),
    warnings: z.array(z.string()).optional(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    estimated_cost_usd: z.number().optional(),
    estimated_turnaround_days: turnaround().optional(),
  })
  .openapi("CloudLabValidation");

export const SubmissionSchema = z
  .object({
    id: z.string().openapi({ example: "cls_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    experiment_id: z.string(),
    provider_id: z.string(),
    provider_submission_id: z.string().nullable(),
    protocol_format: z.string(),
    translated_protocol: object("The protocol sent to the lab"),
    status: z.string().openapi({ enum: [...SUBMISSION_STATUSES] }),
    results: object(
      "completed: the lab's results, e.g. MIC {mic_values: compound -> organism -> value, raw_data_url}; the sandbox lab's are marked simulated",
    ).nullable(),
    error: z.string().nullable(),
    adapter: z.string().openapi({ enum: ["sandbox", "http"], description: "sandbox: a simulated lab" }),
    estimated_cost_usd: z.number(),
    estimated_turnaround_days: turnaround(),
    created_at: dateTime(),
    submitted_at: dateTime().nullable(),
    started_at: dateTime().nullable(),
    completed_at: dateTime().nullable(),
  })
  .openapi("CloudLabSubmission");

const ProviderIdParams = z.object({
  provider_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "provider_id", in: "path" } }),
});
const SubmissionIdParams = z.object({
  submission_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "submission_id", in: "path" } }),
});
const ExperimentIdParams = z.object({
  experiment_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "experiment_id", in: "path" } }),
});

const NOT_FOUND_PROVIDER = "No such provider (not_found)";
const NOT_FOUND_SUBMISSION = "No such submission of yours (not_found)";
const UNTRANSLATABLE =
  "The intake cannot be read, or this provider cannot run it (validation_failed; details.errors name each field: type not supported, cell line, plate format or detection method not available, BSL, limits)";

export const listProviders = createRoute({
  method: "get",
  path: "/cloud-labs/providers",
  operationId: "listCloudLabProviders",
  tags: [TAG],
  summary: "The cloud labs Petri can send protocols to",
  ...authenticatedAccess,
  responses: {
    200: jsonResponse(
      "Every provider",
      z.object({ providers: z.array(ProviderSummarySchema) }).openapi("CloudLabProviderList"),
    ),
    ...errorResponses({ authenticated: true }),
  },
});

export const getProvider = createRoute({
  method: "get",
  path: "/cloud-labs/providers/{provider_id}",
  operationId: "getCloudLabProvider",
  tags: [TAG],
  summary: "One provider: capabilities, pricing, turnaround",
  ...authenticatedAccess,
  request: { params: ProviderIdParams },
  responses: {
    200: jsonResponse("The provider", ProviderSchema),
    ...lookupErrors(NOT_FOUND_PROVIDER),
  },
});

export const listSupportedTypes = createRoute({
  method: "get",
  path: "/cloud-labs/supported-types",
  operationId: "listCloudLabSupportedTypes",
  tags: [TAG],
  summary: "Which experiment types which providers run",
  ...authenticatedAccess,
  responses: {
    200: jsonResponse(
      "Each type with its providers",
      z
        .object({
          supported_types: z.array(
            z.object({
              experiment_type: z.string(),
              providers: z.array(z.string()),
              description: z.string(),
            }),
          ),
        })
        .openapi("CloudLabSupportedTypes"),
    ),
    ...errorResponses({ authenticated: true }),
  },
});

export const interpret = createRoute({
  method: "post",
  path: "/cloud-labs/interpret",
  operationId: "interpretCloudLabIntake",
  tags: [TAG],
  summary:
    "How a lab will read an intake: type, organisms, compounds and concentrations, replicates, incubation, detection",
  description:
    "Uses the configured language model when there is one, and the deterministic rules interpreter otherwise, so it always answers. notes says what was defaulted.",
  ...authenticatedAccess,
  request: { body: jsonBody(InterpretBodySchema) },
  responses: {
    200: jsonResponse("The interpretation", InterpretationSchema),
    ...errorResponses({
      authenticated: true,
      body: true,
      notFound: NOT_FOUND_PROVIDER,
      extra: { 422: UNTRANSLATABLE },
    }),
  },
});

export const translate = createRoute({
  method: "post",
  path: "/cloud-labs/translate",
  operationId: "translateCloudLabIntake",
  tags: [TAG],
  summary: "Translate an intake into the provider's protocol (SLL or Autoprotocol), with cost and turnaround",
  ...authenticatedAccess,
  request: { body: jsonBody(IntakeBodySchema) },
  responses: {
    200: jsonResponse("The protocol", TranslationSchema),
    ...errorResponses({
      authenticated: true,
      body: true,
      notFound: NOT_FOUND_PROVIDER,
      extra: { 422: UNTRANSLATABLE },
    }),
  },
});

export const validate = createRoute({
  method: "post",
  path: "/cloud-labs/validate",
  operationId: "validateCloudLabIntake",
  tags: [TAG],
  summary: "Whether the provider can run an intake: valid with warnings, cost and turnaround, or the errors",
  ...authenticatedAccess,
  request: { body: jsonBody(IntakeBodySchema) },
  responses: {
    200: jsonResponse(
      "valid true with warnings and the estimate, or valid false with errors [{field, message}]",
      ValidationSchema,
    ),
    ...errorResponses({ authenticated: true, body: true, notFound: NOT_FOUND_PROVIDER }),
  },
});

export const translateExperiment = createRoute({
  method: "post",
  path: "/cloud-labs/experiments/{experiment_id}/translate",
  operationId: "translateExperimentForCloudLab",
  tags: [TAG],
  summary: "Translate one of your experiments for a provider and create a submission",
  description:
    "Same answer as POST /cloud-labs/translate, plus the submission (pending), which is then sent to the lab and moves through submitted, queued, running and completed (or failed, or cancelled). Each change is an event.",
  ...authenticatedAccess,
  request: {
    params: ExperimentIdParams,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .strictObject({ provider_id: z.string().min(1).max(64) })
            .openapi("TranslateExperimentRequest"),
        },
      },
    },
  },
  responses: {
    201: jsonResponse(
      "The protocol and the submission",
      TranslationSchema.extend({ submission: SubmissionSchema }).openapi("CloudLabExperimentTranslation"),
    ),
    ...lookupErrors("No such experiment of yours, or no such provider (not_found)", {
      body: true,
      extra: { 422: UNTRANSLATABLE },
    }),
  },
});

export const listSubmissions = createRoute({
  method: "get",
  path: "/cloud-labs/submissions",
  operationId: "listCloudLabSubmissions",
  tags: [TAG],
  summary: "Your submissions, newest first",
  ...authenticatedAccess,
  request: {
    query: z.object({
      experiment_id: z.string().max(64).optional(),
      provider_id: z.string().max(64).optional(),
      status: z.enum(SUBMISSION_STATUSES).optional(),
      limit: queryInt(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
      offset: queryInt(0, 1_000_000, 0),
    }),
  },
  responses: {
    200: jsonResponse(
      "A page of submissions",
      z
        .object({ submissions: z.array(SubmissionSchema), total: z.int(), limit: z.int(), offset: z.int() })
        .openapi("CloudLabSubmissionList"),
    ),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const getSubmission = createRoute({
  method: "get",
  path: "/cloud-labs/submissions/{submission_id}",
  operationId: "getCloudLabSubmission",
  tags: [TAG],
  summary: "One of your submissions with its status and, once completed, its results",
  ...authenticatedAccess,
  request: { params: SubmissionIdParams },
  responses: {
    200: jsonResponse("The submission", SubmissionSchema),
    ...lookupErrors(NOT_FOUND_SUBMISSION),
  },
});

export const cancelSubmission = createRoute({
  method: "post",
  path: "/cloud-labs/submissions/{submission_id}/cancel",
  operationId: "cancelCloudLabSubmission",
  tags: [TAG],
  summary: "Cancel one of your submissions (pending, submitted, queued or running)",
  ...authenticatedAccess,
  request: { params: SubmissionIdParams },
  responses: {
    200: jsonResponse("The cancelled submission", SubmissionSchema),
    ...lookupErrors(NOT_FOUND_SUBMISSION, {
      extra: { 409: "Already completed, failed or cancelled (invalid_state)" },
    }),
  },
});

export const getSubmissionRawData = createRoute({
  method: "get",
  path: "/cloud-labs/submissions/{submission_id}/raw-data",
  operationId: "getCloudLabSubmissionRawData",
  tags: [TAG],
  summary: "The raw data of a completed sandbox submission (simulated), as CSV",
  ...authenticatedAccess,
  request: { params: SubmissionIdParams },
  responses: {
    200: {
      description: "CSV: well, reading, value (simulated)",
      headers: responseHeaders(),
      content: { "text/csv": { schema: z.string() } },
    },
    ...lookupErrors("No such completed sandbox submission of yours (not_found)"),
  },
});
