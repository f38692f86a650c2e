import { createRoute, z } from "@hono/zod-openapi";
import { authenticatedAccess } from "../../lib/access.js";
import { ExperimentRequestSchema, PartialExperimentRequestSchema } from "../../lib/experiment-request.js";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi.js";
import {
  EstimateSchema,
  RequestErrorSchema,
  RequestWarningSchema,
} from "../experiments/experiments.schemas.js";

export const ValidationResultSchema = z
  .object({
    valid: z.boolean().openapi({ description: "True when POST /experiments would accept the request" }),
    errors: z.array(RequestErrorSchema),
    warnings: z.array(RequestWarningSchema).openapi({
      description:
        "Findings that do not make the request invalid: low_replicates and the assay rules of each type (CLSI broth microdilution, dose-response design, MIQE, custom protocol completeness), each with a suggestion",
    }),
    safety_flags: z.array(z.string()).openapi({
      description:
        "bsl_level_exceeded (BSL-3 and above), controlled_substance, human_subjects, safety_rejected. A request with a rejecting flag is refused by POST /experiments with 403 safety_rejected.",
    }),
  })
  .openapi("ValidationResult");

export const HypothesisBodySchema = z
  .strictObject({
    statement: z.string().max(10_000).optional().openapi({ description: "The testable claim" }),
    null_hypothesis: z.string().max(10_000).optional(),
    rationale: z.string().max(10_000).optional(),
  })
  .openapi("HypothesisValidationRequest");

export const HypothesisValidationSchema = z
  .object({
    valid: z.boolean(),
    errors: z.array(RequestErrorSchema),
    suggestions: z.array(z.string()).openapi({
      description:
        "How to make the hypothesis testable: a measurable outcome, a direction or threshold, a named variable and condition, a null hypothesis that negates it",
    }),
  })
  .openapi("HypothesisValidation");

const validationSemantics =
  "The body is passed to the experiments service as sent and checked exactly as POST /experiments checks it; findings come back in the answer (200), not as an error.";

export const validateExperiment = createRoute({
  method: "post",
  path: "/validate",
  operationId: "validateExperiment",
  tags: ["Validation"],
  summary: "Check an experiment request without submitting it",
  description: validationSemantics,
  ...authenticatedAccess,
  request: {
    body: jsonBody(ExperimentRequestSchema),
  },
  responses: {
    200: jsonResponse("The findings", ValidationResultSchema),
    ...errorResponses({ authenticated: true, body: true }),
  },
});

export const validateHypothesis = createRoute({
  method: "post",
  path: "/validate/hypothesis",
  operationId: "validateHypothesis",
  tags: ["Validation"],
  summary: "Check that a hypothesis is testable",
  ...authenticatedAccess,
  request: {
    body: jsonBody(HypothesisBodySchema),
  },
  responses: {
    200: jsonResponse("The findings and suggestions", HypothesisValidationSchema),
    ...errorResponses({ authenticated: true, body: true }),
  },
});

export const estimateExperiment = createRoute({
  method: "post",
  path: "/estimate",
  operationId: "estimateExperiment",
  tags: ["Validation"],
  summary: "Price a (possibly partial) experiment request",
  description:
    "Cost follows the work: type, replicates, samples, compounds and dose points, package level, template, priority (expedited about +20 %, urgent about +50 %) and privacy (delayed_6mo +10 %, delayed_12mo +15 %, private +25-50 %). operator_availability counts the verified operators who could take the request. Being for partial requests, it prices what it can read: a field that is missing, of the wrong type or unknown is left out of the price (the request schema below is what POST /experiments accepts), never an error; POST /validate reports such fields.",
  ...authenticatedAccess,
  request: {
    body: jsonBody(PartialExperimentRequestSchema),
  },
  responses: {
    200: jsonResponse("The estimate", EstimateSchema),
    ...errorResponses({ authenticated: true, body: true }),
  },
});
