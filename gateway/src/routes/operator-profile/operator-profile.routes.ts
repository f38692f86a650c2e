import { createRoute, z } from "@hono/zod-openapi";
import { authenticatedAccess } from "../../lib/access.js";
import { OPERATION_BODY_LIMITS } from "../../lib/body-limit.js";
import { OPERATOR_STATUSES } from "@petri/contracts/vocabulary";
import { errorResponses, jsonBody, jsonResponse, responseHeaders } from "../../lib/openapi.js";
import { OperatorProfileSchema } from "../../lib/operator-profile.js";
import { dateTime } from "../../lib/schema-shapes.js";

const rate = (description: string) =>
  z.number().openapi({ description: `${description} (0 to 1)`, minimum: 0, maximum: 1 });

export const OperatorSchema = z
  .object({
    operator_id: z.string().openapi({ example: "op_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    account_id: z.string().openapi({ description: "The account that manages the lab" }),
    lab_name: z.string(),
    status: z.string().openapi({
      enum: [...OPERATOR_STATUSES],
      description:
        "pending_verification after a profile is submitted; active once staff verified it (only active labs see jobs and claim); rejected and suspended carry status_reason",
    }),
    status_reason: z
      .string()
      .nullable()
      .openapi({ description: "Why it was rejected or suspended, while in that status" }),
    profile: z.record(z.string(), z.unknown()).openapi({
      description: "The declared profile as stored (see OperatorProfile), every default applied",
    }),
    verification: z.record(z.string(), z.unknown()).nullable().openapi({
      description: "What staff verified (see VerificationRecord); null until verified",
    }),
    quality: z
      .object({
        on_time_rate: rate("Share of jobs delivered by the deadline"),
        rerun_rate: rate("Share of jobs that had to be rerun"),
        dispute_rate: rate("Share of jobs whose results were disputed"),
        average_rating: z
          .number()
          .nullable()
          .openapi({ description: "Requesters' average rating (1 to 5); null before the first rating" }),
        ratings_count: z.int(),
        total_jobs_completed: z.int(),
      })
      .nullable()
      .openapi({ description: "Quality metrics Petri computes from approvals and disputes" }),
    active_jobs: z.int().openapi({ description: "Jobs claimed and not yet approved or cancelled" }),
    created_at: dateTime(),
    updated_at: dateTime(),
  })
  .openapi("Operator");

const OPERATOR_ROLE_NOTE =
  "Any authenticated account may call this: the marketplace service decides who is an operator. A lab verified after its access token was issued keeps working with that token (its role claim updates only when a new token is issued).";

const PROFILE_LIMIT_KIB = OPERATION_BODY_LIMITS["POST /operator/profile"]! / 1024;

export const submitOperatorProfile = createRoute({
  method: "post",
  path: "/operator/profile",
  operationId: "submitOperatorProfile",
  tags: ["Operators"],
  summary: "Declare your lab's profile (or replace it) and send it to staff verification",
  description: `The marketplace service validates the profile and moves the lab to pending_verification; staff verify it (POST /admin/operators/{operator_id}/verify) before it sees jobs. The body may be up to ${PROFILE_LIMIT_KIB} KiB. ${OPERATOR_ROLE_NOTE}`,
  ...authenticatedAccess,
  request: { body: jsonBody(OperatorProfileSchema) },
  responses: {
    201: {
      description: "The lab's first profile: its operator record",
      headers: {
        ...responseHeaders(),
        Location: { description: "/operator/profile", schema: { type: "string" } },
      },
      content: { "application/json": { schema: OperatorSchema } },
    },
    200: jsonResponse(
      "A replaced profile: the operator record, back in pending_verification",
      OperatorSchema,
    ),
    ...errorResponses({
      authenticated: true,
      body: true,
      extra: {
        409: "The lab's status does not allow a new profile, e.g. while suspended (invalid_state, with details.status and details.allowed_from)",
        413: `The body is larger than ${PROFILE_LIMIT_KIB} KiB (payload_too_large)`,
        422: "The profile is invalid (validation_failed, details.errors [{path, field, code, message}] with the profile path, e.g. capabilities.experiment_types)",
      },
    }),
  },
});

export const getMyOperator = createRoute({
  method: "get",
  path: "/operator/profile",
  operationId: "getMyOperator",
  tags: ["Operators"],
  summary: "Your lab's operator record: status, profile, verification and quality metrics",
  description: OPERATOR_ROLE_NOTE,
  ...authenticatedAccess,
  responses: {
    200: jsonResponse("Your operator record", OperatorSchema),
    ...errorResponses({
      authenticated: true,
      notFound: "Your account has no operator profile yet (not_found): POST /operator/profile first",
    }),
  },
});
