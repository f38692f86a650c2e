import { createRoute, z } from "@hono/zod-openapi";
import { restrictedTo } from "../../lib/access.js";
import { requestFieldDocumentation } from "../../lib/experiment-request.js";
import { errorResponses, jsonBody, jsonResponse, optionalJsonBody, lookupErrors } from "../../lib/openapi.js";
import { cursorPageQuery, includeTotalQuery } from "../../lib/pagination.js";
import {
  ExperimentIdParamsSchema,
  ExperimentSchema,
  ExperimentSummarySchema,
  OptionalTotalPaginationSchema,
} from "../experiments/experiments.schemas.js";

export const ReviewQueueQuerySchema = z.object({ ...cursorPageQuery, ...includeTotalQuery });

export const ReviewQueueSchema = z
  .object({ experiments: z.array(ExperimentSummarySchema), pagination: OptionalTotalPaginationSchema })
  .openapi("ReviewQueue", { description: "Experiments in pending_review, oldest first" });

export const ApproveReviewBodySchema = z
  .strictObject({
    note: z.string().max(2000).optional().openapi({ description: "Kept with the review" }),
  })
  .openapi("ApproveReviewRequest");

export const RejectReviewBodySchema = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .openapi({ description: "Why it is rejected; the requester sees it as the cancellation reason" }),
  })
  .openapi("RejectReviewRequest");

export const ProposeProtocolBodySchema = z
  .strictObject({
    protocol: z
      .looseObject({})
      .openapi(
        requestFieldDocumentation(
          "custom_protocol",
          "The proposed protocol, shaped like a request's protocol.custom_protocol (validated by the experiments service)",
        ) as object,
      ),
    note: z.string().max(5000).optional().openapi({ description: "A note to the requester" }),
  })
  .openapi("ProposeProtocolRequest");

const staffOnly = restrictedTo("staff");
const NOT_FOUND = "No such experiment (not_found)";
const INVALID_STATE =
  "The experiment is not in a state that allows this (invalid_state, with details.status and details.allowed_from), or a conflicting change";

export const listReviewQueue = createRoute({
  method: "get",
  path: "/admin/review-queue",
  operationId: "listReviewQueue",
  tags: ["Admin"],
  summary: "Experiments waiting for staff review (pending_review), oldest first (staff only)",
  ...staffOnly,
  request: { query: ReviewQueueQuerySchema },
  responses: {
    200: jsonResponse("A page of the queue", ReviewQueueSchema),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const approveReview = createRoute({
  method: "post",
  path: "/admin/experiments/{experiment_id}/approve",
  operationId: "approveReview",
  tags: ["Admin"],
  summary: "Approve a reviewed request: pending_review -> open (staff only)",
  description:
    "A protocol design request cannot be approved: it opens when the requester accepts a proposed protocol (409 protocol_proposal_required).",
  ...staffOnly,
  request: {
    params: ExperimentIdParamsSchema,
    body: optionalJsonBody(ApproveReviewBodySchema),
  },
  responses: {
    200: jsonResponse("The experiment, now open", ExperimentSchema),
    ...lookupErrors(NOT_FOUND, { body: true, extra: { 409: INVALID_STATE } }),
  },
});

export const rejectReview = createRoute({
  method: "post",
  path: "/admin/experiments/{experiment_id}/reject",
  operationId: "rejectReview",
  tags: ["Admin"],
  summary: "Reject a reviewed request: pending_review -> cancelled with a full refund (staff only)",
  ...staffOnly,
  request: {
    params: ExperimentIdParamsSchema,
    body: jsonBody(RejectReviewBodySchema),
  },
  responses: {
    200: jsonResponse("The experiment, now cancelled", ExperimentSchema),
    ...lookupErrors(NOT_FOUND, { body: true, extra: { 409: INVALID_STATE } }),
  },
});

export const proposeProtocol = createRoute({
  method: "post",
  path: "/admin/experiments/{experiment_id}/protocol-proposal",
  operationId: "proposeProtocol",
  tags: ["Admin"],
  summary: "Propose a protocol for a protocol_design_requested experiment (staff only)",
  description:
    "Each proposal is a new revision that replaces the previous one; the requester accepts it (the experiment opens) or asks for changes.",
  ...staffOnly,
  request: {
    params: ExperimentIdParamsSchema,
    body: jsonBody(ProposeProtocolBodySchema),
  },
  responses: {
    200: jsonResponse("The experiment with the proposal", ExperimentSchema),
    ...lookupErrors(NOT_FOUND, {
      body: true,
      extra: {
        409: `Not a protocol design request (protocol_design_not_requested), or ${INVALID_STATE}`,
        422: "The body or the proposed protocol is invalid (validation_failed, details.errors [{path, field, code, message}])",
      },
    }),
  },
});
