import { createRoute, z } from "@hono/zod-openapi";
import { restrictedTo } from "../../lib/access.js";
import { OPERATOR_STATUSES } from "@petri/contracts/vocabulary";
import { errorResponses, jsonBody, jsonResponse, lookupErrors } from "../../lib/openapi.js";
import { VerificationRecordSchema } from "../../lib/operator-profile.js";
import { cursorPageQuery, includeTotalQuery } from "../../lib/pagination.js";
import { OptionalTotalPaginationSchema } from "../experiments/experiments.schemas.js";
import { OperatorSchema } from "../operator-profile/operator-profile.routes.js";

export const OperatorIdParamsSchema = z.object({
  operator_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "operator_id", in: "path" }, example: "op_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
});

export const ListOperatorsQuerySchema = z.object({
  status: z.enum(OPERATOR_STATUSES).optional().openapi({ description: "Only operators in this status" }),
  ...cursorPageQuery,
  ...includeTotalQuery,
});

export const OperatorListSchema = z
  .object({ operators: z.array(OperatorSchema), pagination: OptionalTotalPaginationSchema })
  .openapi("OperatorList");

export const OperatorStatusReasonBodySchema = z
  .strictObject({
    reason: z.string().trim().min(1).max(1000).openapi({
      description: "Why (required); the lab sees it as status_reason",
      example: "licence expired",
    }),
  })
  .openapi("OperatorStatusReasonRequest");

const staffOnly = restrictedTo("staff");
const NOT_FOUND = "No such operator (not_found)";
const INVALID_STATE =
  "The operator's status does not allow this (invalid_state, with details.status and details.allowed_from)";
export const listOperators = createRoute({
  method: "get",
  path: "/admin/operators",
  operationId: "listOperators",
  tags: ["Admin"],
  summary: "Operators (labs), e.g. ?status=pending_verification for the verification queue (staff only)",
  ...staffOnly,
  request: { query: ListOperatorsQuerySchema },
  responses: {
    200: jsonResponse("A page of operators", OperatorListSchema),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const getOperator = createRoute({
  method: "get",
  path: "/admin/operators/{operator_id}",
  operationId: "getOperator",
  tags: ["Admin"],
  summary: "An operator with its profile, verification and quality metrics (staff only)",
  ...staffOnly,
  request: { params: OperatorIdParamsSchema },
  responses: {
    200: jsonResponse("The operator", OperatorSchema),
    ...lookupErrors(NOT_FOUND),
  },
});

export const verifyOperator = createRoute({
  method: "post",
  path: "/admin/operators/{operator_id}/verify",
  operationId: "verifyOperator",
  tags: ["Admin"],
  summary: "Record what staff verified; a complete verification makes the lab active (staff only)",
  description:
    "Identity, institution and supervisor approval verified and at least one competency make the operator active: it sees jobs and may claim them, and its account gets the operator role (its next access token says so).",
  ...staffOnly,
  request: { params: OperatorIdParamsSchema, body: jsonBody(VerificationRecordSchema) },
  responses: {
    200: jsonResponse("The operator with its verification", OperatorSchema),
    ...lookupErrors(NOT_FOUND, {
      body: true,
      extra: {
        409: INVALID_STATE,
        422: "The verification record is invalid (validation_failed, details.errors [{path, field, code, message}])",
      },
    }),
  },
});

export const rejectOperator = createRoute({
  method: "post",
  path: "/admin/operators/{operator_id}/reject",
  operationId: "rejectOperator",
  tags: ["Admin"],
  summary: "Reject a submitted profile with a reason; the lab may submit a new one (staff only)",
  ...staffOnly,
  request: { params: OperatorIdParamsSchema, body: jsonBody(OperatorStatusReasonBodySchema) },
  responses: {
    200: jsonResponse("The operator, rejected", OperatorSchema),
    ...lookupErrors(NOT_FOUND, { body: true, extra: { 409: INVALID_STATE } }),
  },
});

export const suspendOperator = createRoute({
  method: "post",
  path: "/admin/operators/{operator_id}/suspend",
  operationId: "suspendOperator",
  tags: ["Admin"],
  summary: "Suspend an operator with a reason: it no longer sees or claims jobs (staff only)",
  ...staffOnly,
  request: { params: OperatorIdParamsSchema, body: jsonBody(OperatorStatusReasonBodySchema) },
  responses: {
    200: jsonResponse("The operator, suspended", OperatorSchema),
    ...lookupErrors(NOT_FOUND, { body: true, extra: { 409: INVALID_STATE } }),
  },
});

export const reinstateOperator = createRoute({
  method: "post",
  path: "/admin/operators/{operator_id}/reinstate",
  operationId: "reinstateOperator",
  tags: ["Admin"],
  summary: "Reinstate a suspended operator (staff only)",
  ...staffOnly,
  request: { params: OperatorIdParamsSchema },
  responses: {
    200: jsonResponse("The operator, reinstated", OperatorSchema),
    ...lookupErrors(NOT_FOUND, { extra: { 409: INVALID_STATE } }),
  },
});
