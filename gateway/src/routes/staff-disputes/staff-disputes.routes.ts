import { createRoute, z } from "@hono/zod-openapi";
import { restrictedTo } from "../../lib/access.js";
import { DISPUTE_OUTCOMES, DISPUTE_STATUSES } from "@petri/contracts/vocabulary";
import { usdToCents } from "../../lib/money.js";
import { errorResponses, jsonBody, jsonResponse, lookupErrors } from "../../lib/openapi.js";
import { cursorPageQuery, includeTotalQuery } from "../../lib/pagination.js";
import { ResultsRecordSchema } from "../../lib/results-model.js";
import {
  DisputeSchema,
  ExperimentSchema,
  OptionalTotalPaginationSchema,
} from "../experiments/experiments.schemas.js";

export const DisputeIdParamsSchema = z.object({
  dispute_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "dispute_id", in: "path" }, example: "dsp_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
});

export const ListDisputesQuerySchema = z.object({
  status: z.enum(DISPUTE_STATUSES).optional().openapi({ description: "open or resolved (default: both)" }),
  ...cursorPageQuery,
  ...includeTotalQuery,
});

export const StaffDisputeSchema = DisputeSchema.extend({
  requester_account_id: z.string(),
  operator_id: z.string().nullable().openapi({ description: "The lab whose results are disputed" }),
  resolved_by: z.string().nullable().openapi({ description: "The staff account that resolved it" }),
}).openapi("StaffDispute");

export const DisputeListSchema = z
  .object({ disputes: z.array(StaffDisputeSchema), pagination: OptionalTotalPaginationSchema })
  .openapi("DisputeList");

export const AcceptanceEvaluationSchema = z.record(z.string(), z.unknown()).openapi("AcceptanceEvaluation", {
  description:
    "The automatic evaluation of the results against the experiment's acceptance criteria: verdict (pass, fail or indeterminate), reasons, each success condition with the observed value, failure conditions, the reported p-value against the significance level, the test recomputed from the replicate measurements, and flags for staff (unit mismatch, p-value disagreement, ...). Advisory: staff decide.",
});

export const DisputeReviewSchema = z
  .object({
    dispute: StaffDisputeSchema,
    experiment: ExperimentSchema,
    results: ResultsRecordSchema.nullable().openapi({
      description: "The disputed results record, with signed file URLs (null if none was stored)",
    }),
    evaluation: AcceptanceEvaluationSchema.nullable(),
  })
  .openapi("DisputeReview");

/** A USD amount as a number or decimal string with at most two decimals -> exact cents. */
const usdAmount = z.union([z.number(), z.string().max(32)]).transform((value, ctx) => {
  const cents = usdToCents(value);
  if (cents === undefined) {
    ctx.addIssue({
      code: "custom",
      message: 'must be a USD amount of at least 0 with at most two decimals, e.g. 19.99 or "19.99"',
      input: value,
    });
    return z.NEVER;
  }
  return cents;
});

export const ResolveDisputeBodySchema = z
  .strictObject({
    outcome: z.enum(DISPUTE_OUTCOMES).openapi({
      description:
        "requester: the amount at stake goes back to the requester; operator: it is paid to the lab; split: as the two amounts say",
    }),
    requester_amount_usd: usdAmount.optional().openapi({
      description:
        "For split (required then, only then): USD to the requester, a number or a decimal string with at most two decimals, converted to cents exactly",
      example: 19.99,
    }),
    operator_amount_usd: usdAmount.optional().openapi({
      description:
        "For split (required then, only then): USD to the lab; the two add up to the amount at stake",
      example: 392.51,
    }),
    note: z.string().max(5000).optional().openapi({ description: "The reasoning, kept with the resolution" }),
  })
  .superRefine((body, ctx) => {
    for (const field of ["requester_amount_usd", "operator_amount_usd"] as const) {
      if (body.outcome === "split" && body[field] === undefined) {
        ctx.addIssue({
          code: "invalid_type",
          expected: "number",
          path: [field],
          message: "required for a split",
          input: undefined,
        });
      }
      if (body.outcome !== "split" && body[field] !== undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: "only for a split", input: body[field] });
      }
    }
  })
  .openapi("ResolveDisputeRequest");

export const ResolvedDisputeSchema = z
  .object({ dispute: StaffDisputeSchema, experiment: ExperimentSchema })
  .openapi("ResolvedDispute");

const staffOnly = restrictedTo("staff");
const NOT_FOUND = "No such dispute (not_found)";

export const listDisputes = createRoute({
  method: "get",
  path: "/admin/disputes",
  operationId: "listDisputes",
  tags: ["Admin"],
  summary: "Disputes, open or resolved (staff only)",
  ...staffOnly,
  request: { query: ListDisputesQuerySchema },
  responses: {
    200: jsonResponse("A page of disputes", DisputeListSchema),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const getDispute = createRoute({
  method: "get",
  path: "/admin/disputes/{dispute_id}",
  operationId: "getDispute",
  tags: ["Admin"],
  summary: "A dispute with its experiment, the results and the automatic acceptance evaluation (staff only)",
  ...staffOnly,
  request: { params: DisputeIdParamsSchema },
  responses: {
    200: jsonResponse("Everything needed to resolve the dispute", DisputeReviewSchema),
    ...lookupErrors(NOT_FOUND),
  },
});

export const resolveDispute = createRoute({
  method: "post",
  path: "/admin/disputes/{dispute_id}/resolve",
  operationId: "resolveDispute",
  tags: ["Admin"],
  summary: "Resolve a dispute: disputed -> resolved, and the money moves as decided (staff only)",
  description:
    "The ledger posts the resolution in the same step. A split names both amounts; they must add up to the amount at stake (the held amount, or what was released when the dispute was raised after approval).",
  ...staffOnly,
  request: {
    params: DisputeIdParamsSchema,
    body: jsonBody(ResolveDisputeBodySchema),
  },
  responses: {
    200: jsonResponse("The resolved dispute and its experiment", ResolvedDisputeSchema),
    ...lookupErrors(NOT_FOUND, {
      body: true,
      extra: {
        409: "Already resolved (invalid_state, with details.status and details.allowed_from)",
        422: "The body is invalid, or the split's amounts do not add up to the amount at stake (validation_failed, details.errors [{path, field, code, message}])",
      },
    }),
  },
});
