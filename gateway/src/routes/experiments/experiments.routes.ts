import { createRoute } from "@hono/zod-openapi";
import { authenticatedAccess } from "../../lib/access.js";
import { ExperimentRequestSchema } from "../../lib/experiment-request.js";
import { errorResponses, jsonBody, jsonResponse, lookupErrors, responseHeaders } from "../../lib/openapi.js";
import {
  ExperimentSubmissionSchema,
  ExperimentSchema,
  ExperimentIdParamsSchema,
  CreateExperimentQuerySchema,
  ListExperimentsQuerySchema,
  ExperimentListSchema,
  UpdateExperimentBodySchema,
  CancelExperimentBodySchema,
  CancelledExperimentSchema,
  RequestProtocolChangesBodySchema,
  createIdempotencyKeyParameter,
} from "./experiments.schemas.js";
import { EXPERIMENT_NOT_FOUND, NOT_THE_REQUESTER } from "../../lib/experiment-errors.js";

// ---------------------------------------------------------------------------------------
// Routes

const INVALID_STATE =
  "The experiment's status does not allow this (invalid_state, with details.status and details.allowed_from), or a conflicting change";

export const createExperiment = createRoute({
  method: "post",
  path: "/experiments",
  operationId: "createExperiment",
  tags: ["Experiments"],
  summary: "Submit an experiment request (or save a draft with ?draft=true)",
  description:
    "The experiments service validates the request (POST /validate gives the same findings without storing anything), estimates it, and stores it as open (routed to qualified operators) or pending_review (staff look first: protocol design requests, custom protocols, BSL-2 with human-derived material, flagged hazards). Send an Idempotency-Key to retry safely.",
  ...authenticatedAccess,
  parameters: [createIdempotencyKeyParameter],
  request: { query: CreateExperimentQuerySchema, body: jsonBody(ExperimentRequestSchema) },
  responses: {
    201: {
      description:
        "Created. A replay of an earlier request with the same Idempotency-Key and body answers with the same status and the same body, byte for byte, and Idempotent-Replayed: true.",
      headers: {
        ...responseHeaders(),
        Location: { description: "The experiment's path", schema: { type: "string" } },
        "Idempotent-Replayed": {
          description: "true when this answer replays an earlier request with the same Idempotency-Key",
          schema: { type: "string", enum: ["true"] },
        },
      },
      content: { "application/json": { schema: ExperimentSubmissionSchema } },
    },
    ...errorResponses({
      authenticated: true,
      body: true,
      parameters: true,
      extra: {
        403: "Forbidden for your account (forbidden), or rejected for safety (safety_rejected, with details.safety_flags such as bsl_level_exceeded or controlled_substance)",
        409: "A request with the same Idempotency-Key is still being processed (retry it)",
        422: "The request is invalid (validation_failed, details.errors [{path, field, code, message}]: the body is not a JSON object, a field of the request model is missing or wrong, or Idempotency-Key or draft is malformed), or the Idempotency-Key was used with another body (idempotency_key_reused)",
      },
    }),
  },
});

export const submitDraft = createRoute({
  method: "post",
  path: "/experiments/{experiment_id}/submit",
  operationId: "submitDraft",
  tags: ["Experiments"],
  summary: "Submit a draft: validated in full, then open or pending_review",
  ...authenticatedAccess,
  request: { params: ExperimentIdParamsSchema },
  responses: {
    200: jsonResponse("The submitted experiment", ExperimentSubmissionSchema),
    ...lookupErrors(EXPERIMENT_NOT_FOUND, {
      extra: {
        403: `${NOT_THE_REQUESTER}, or rejected for safety (safety_rejected, with details.safety_flags)`,
        409: `Not a draft: ${INVALID_STATE}`,
        422: "The draft is not a valid request yet (validation_failed, details.errors [{path, field, code, message}])",
      },
    }),
  },
});

export const listExperiments = createRoute({
  method: "get",
  path: "/experiments",
  operationId: "listExperiments",
  tags: ["Experiments"],
  summary: "Your experiments, newest first (staff: everyone's), paged by cursor",
  ...authenticatedAccess,
  request: { query: ListExperimentsQuerySchema },
  responses: {
    200: jsonResponse("A page of experiments", ExperimentListSchema),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const getExperiment = createRoute({
  method: "get",
  path: "/experiments/{experiment_id}",
  operationId: "getExperiment",
  tags: ["Experiments"],
  summary: "An experiment with its request, estimate, status and operator",
  ...authenticatedAccess,
  request: { params: ExperimentIdParamsSchema },
  responses: {
    200: jsonResponse("The experiment", ExperimentSchema),
    ...lookupErrors(EXPERIMENT_NOT_FOUND),
  },
});

export const updateExperiment = createRoute({
  method: "patch",
  path: "/experiments/{experiment_id}",
  operationId: "updateExperiment",
  tags: ["Experiments"],
  summary: "Change constraints, turnaround or communication preferences (only before a claim)",
  description:
    "The changed request is validated and re-estimated. After an operator's claim: 409 invalid_state.",
  ...authenticatedAccess,
  request: { params: ExperimentIdParamsSchema, body: jsonBody(UpdateExperimentBodySchema) },
  responses: {
    200: jsonResponse("The updated experiment", ExperimentSchema),
    ...lookupErrors(EXPERIMENT_NOT_FOUND, {
      body: true,
      extra: {
        403: NOT_THE_REQUESTER,
        409: INVALID_STATE,
        422: "The patch or the request it makes is invalid (validation_failed, details.errors [{path, field, code, message}])",
      },
    }),
  },
});

export const cancelExperiment = createRoute({
  method: "delete",
  path: "/experiments/{experiment_id}",
  operationId: "cancelExperiment",
  tags: ["Experiments"],
  summary: "Cancel with a reason: open -> full refund, claimed -> partial, in_progress -> none",
  description:
    "A claimed experiment refunds 80 % of the held amount; 20 % compensates the operator who reserved capacity. Completed, disputed, resolved, pending_approval and cancelled experiments cannot be cancelled (409 invalid_state).",
  ...authenticatedAccess,
  request: { params: ExperimentIdParamsSchema, body: jsonBody(CancelExperimentBodySchema) },
  responses: {
    200: jsonResponse("The cancellation and its refund", CancelledExperimentSchema),
    ...lookupErrors(EXPERIMENT_NOT_FOUND, {
      body: true,
      extra: { 403: NOT_THE_REQUESTER, 409: INVALID_STATE },
    }),
  },
});

export const acceptProtocolProposal = createRoute({
  method: "post",
  path: "/experiments/{experiment_id}/protocol-proposal/accept",
  operationId: "acceptProtocolProposal",
  tags: ["Experiments"],
  summary: "Accept the protocol staff proposed: it becomes the request's protocol and the experiment opens",
  ...authenticatedAccess,
  request: { params: ExperimentIdParamsSchema },
  responses: {
    200: jsonResponse("The experiment, now open", ExperimentSchema),
    ...lookupErrors(EXPERIMENT_NOT_FOUND, {
      extra: {
        403: NOT_THE_REQUESTER,
        409: `No proposal awaits a decision (no_pending_proposal), not a design request, or ${INVALID_STATE}`,
      },
    }),
  },
});

export const requestProtocolChanges = createRoute({
  method: "post",
  path: "/experiments/{experiment_id}/protocol-proposal/request-changes",
  operationId: "requestProtocolChanges",
  tags: ["Experiments"],
  summary: "Ask staff to change the proposed protocol (the experiment stays in pending_review)",
  ...authenticatedAccess,
  request: { params: ExperimentIdParamsSchema, body: jsonBody(RequestProtocolChangesBodySchema) },
  responses: {
    200: jsonResponse("The experiment with the proposal marked changes_requested", ExperimentSchema),
    ...lookupErrors(EXPERIMENT_NOT_FOUND, {
      body: true,
      extra: {
        403: NOT_THE_REQUESTER,
        409: `No proposal awaits a decision (no_pending_proposal), not a design request, or ${INVALID_STATE}`,
      },
    }),
  },
});
