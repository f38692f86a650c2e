import { createRoute, z } from "@hono/zod-openapi";
import { authenticatedAccess } from "../../lib/access.js";
import { DISPUTE_REASONS } from "@petri/contracts/vocabulary";
import { jsonBody, jsonResponse, optionalJsonBody, lookupErrors } from "../../lib/openapi.js";
import { ResultsRecordSchema } from "../../lib/results-model.js";
import { ExperimentIdParamsSchema, ExperimentStatusSchema } from "../experiments/experiments.schemas.js";
import { EXPERIMENT_NOT_FOUND, NOT_THE_REQUESTER } from "../../lib/experiment-errors.js";

export const ApproveBodySchema = z
  .strictObject({
    rating: z
      .int()
      .min(1)
      .max(5)
      .optional()
      .openapi({ description: "Your rating of the lab's work, 1 to 5 (feeds its quality metrics)" }),
    feedback: z
      .string()
      .max(2000)
      .optional()
      .openapi({ description: "For the lab (at most 2000 characters)" }),
  })
  .openapi("ApproveResultsRequest");

export const ApprovedSchema = z
  .object({
    experiment_id: z.string(),
    status: ExperimentStatusSchema.openapi({ description: "completed" }),
    payment_released: z.boolean().openapi({
      description: "True when the held amount was released to the lab together with the approval",
    }),
  })
  .openapi("ApprovedResults");

export const DisputeBodySchema = z
  .strictObject({
    reason: z.enum(DISPUTE_REASONS).openapi({ description: "With other, describe the problem in detail" }),
    description: z.string().trim().min(1).max(5000).openapi({
      description: "What is wrong with the results, against the acceptance criteria (at most 5000)",
    }),
    evidence_urls: z
      .array(z.url({ protocol: /^https?$/ }).max(2048))
      .max(20)
      .optional()
      .openapi({ description: "Links to evidence (http or https URLs, at most 20)" }),
  })
  .openapi("DisputeResultsRequest");

export const DisputeRaisedSchema = z
  .object({
    dispute_id: z.string().openapi({ example: "dsp_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    experiment_id: z.string(),
    status: ExperimentStatusSchema.openapi({ description: "disputed" }),
  })
  .openapi("DisputeRaised");

const INVALID_STATE =
  "The experiment's status does not allow this (invalid_state, with details.status and details.allowed_from)";

export const getResults = createRoute({
  method: "get",
  path: "/experiments/{experiment_id}/results",
  operationId: "getResults",
  tags: ["Results"],
  summary: "The results record, with signed download URLs for its files",
  description:
    "Readable from pending_approval on (before: 409 invalid_state). The file URLs are signed and short-lived (urls_expire_at); read the results again for fresh ones.",
  ...authenticatedAccess,
  request: { params: ExperimentIdParamsSchema },
  responses: {
    200: jsonResponse("The results record", ResultsRecordSchema),
    ...lookupErrors(EXPERIMENT_NOT_FOUND, { extra: { 409: `No results yet: ${INVALID_STATE}` } }),
  },
});

export const approveResults = createRoute({
  method: "post",
  path: "/experiments/{experiment_id}/approve",
  operationId: "approveResults",
  tags: ["Results"],
  summary: "Approve the results: pending_approval -> completed, payment released to the lab",
  description: "The body is optional. The lab is notified (approved).",
  ...authenticatedAccess,
  request: {
    params: ExperimentIdParamsSchema,
    body: optionalJsonBody(ApproveBodySchema),
  },
  responses: {
    200: jsonResponse("The approval", ApprovedSchema),
    ...lookupErrors(EXPERIMENT_NOT_FOUND, {
      body: true,
      extra: {
        403: NOT_THE_REQUESTER,
        409: `${INVALID_STATE}; approving an already approved experiment is 409 too`,
      },
    }),
  },
});

export const disputeResults = createRoute({
  method: "post",
  path: "/experiments/{experiment_id}/dispute",
  operationId: "disputeResults",
  tags: ["Results"],
  summary: "Dispute the results: pending_approval, or completed within 14 days of approval -> disputed",
  description:
    "Staff review the dispute against the acceptance criteria and resolve it (the held or released amount goes to the requester, the lab, or is split). The lab is notified (disputed).",
  ...authenticatedAccess,
  request: {
    params: ExperimentIdParamsSchema,
    body: jsonBody(DisputeBodySchema),
  },
  responses: {
    201: jsonResponse("The dispute", DisputeRaisedSchema),
    ...lookupErrors(EXPERIMENT_NOT_FOUND, {
      body: true,
      extra: {
        403: NOT_THE_REQUESTER,
        409: `${INVALID_STATE}, the dispute window has passed, or a dispute was already raised`,
      },
    }),
  },
});
