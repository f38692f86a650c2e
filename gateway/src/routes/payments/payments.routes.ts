import { createRoute, z } from "@hono/zod-openapi";
import { authenticatedAccess } from "../../lib/access.js";
import { jsonResponse, lookupErrors } from "../../lib/openapi.js";
import { ExperimentIdParamsSchema } from "../experiments/experiments.schemas.js";

const usd = (description: string) =>
  z.number().openapi({ description: `${description} (USD, at most two decimals)`, example: 412.5 });

export const PAYMENT_STATUSES = [
  "not_held",
  "held",
  "released",
  "refunded",
  "partially_refunded",
  "disputed",
  "resolved",
] as const;

export const PostingSchema = z
  .object({
    kind: z.string().openapi({
      enum: ["hold", "hold_adjustment", "release", "refund", "compensation", "dispute_resolution"],
    }),
    posted_at: z.string().nullable().openapi({ format: "date-time" }),
    entries: z
      .array(
        z.object({
          account: z.string().openapi({
            description:
              "requester_funds, escrow:<experiment_id>, operator_payable:<operator_id> or requester_refund",
            example: "escrow:exp_01jd0c6r5v8q2m7x4k9w3t1b6n",
          }),
          amount_usd: usd("Debit (negative) or credit (positive); a posting's entries add up to 0"),
        }),
      )
      .openapi({ description: "Double-entry lines" }),
  })
  .openapi("Posting");

export const ExperimentPaymentSchema = z
  .object({
    experiment_id: z.string(),
    status: z.string().openapi({ enum: [...PAYMENT_STATUSES] }),
    held_usd: usd("Put in escrow"),
    released_usd: usd("Released to the lab on approval"),
    refunded_usd: usd("Refunded to the requester on cancellation"),
    compensated_usd: usd("Paid to the lab for a cancellation after its claim"),
    returned_to_requester_usd: usd(
      "Everything returned to the requester: refunds, a dispute resolution's requester share and any amount a dispute moved back from the lab (a total, not only the dispute's share)",
    ),
    paid_to_operator_usd: usd(
      "Everything paid to the lab: the release, cancellation compensation and a dispute resolution's lab share, less any amount a dispute moved back to the requester (a total, not only the dispute's share)",
    ),
    still_held_usd: usd("Still in escrow"),
    postings: z.array(PostingSchema).openapi({ description: "The ledger postings, oldest first" }),
  })
  .openapi("ExperimentPayment", {
    description:
      "Two views of the same money, each conserved to the cent: where the escrow went, held = released + refunded + compensated + the dispute shares + still_held (the dispute shares are in the postings); and whose it is now, held = returned_to_requester + paid_to_operator + still_held.",
  });

export const getExperimentPayment = createRoute({
  method: "get",
  path: "/experiments/{experiment_id}/payment",
  operationId: "getExperimentPayment",
  tags: ["Experiments"],
  summary: "The escrow of an experiment: what is held, released, refunded, with the ledger postings",
  ...authenticatedAccess,
  request: { params: ExperimentIdParamsSchema },
  responses: {
    200: jsonResponse("The escrow summary", ExperimentPaymentSchema),
    ...lookupErrors(
      "No such experiment of yours, or nothing posted for it yet (not_found); another account's experiment is 404 too",
    ),
  },
});
