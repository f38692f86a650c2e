import { createRoute, z } from "@hono/zod-openapi";
import { restrictedTo } from "../../lib/access.js";
import { errorResponses, jsonResponse } from "../../lib/openapi.js";

const usd = (description: string) =>
  z.number().openapi({ description: `${description}, over every experiment (USD, at most two decimals)` });

export const LedgerCheckSchema = z
  .object({
    balanced: z.boolean().openapi({
      description:
        "True when, for every experiment, held = released + refunded + compensated + dispute shares + still held, to the cent",
    }),
    experiments: z.int().openapi({ description: "Experiments with ledger postings" }),
    held_usd: usd("Put in escrow"),
    released_usd: usd("Released to labs on approval"),
    refunded_usd: usd("Refunded to requesters"),
    compensated_usd: usd("Paid to labs for cancellations after their claim"),
    dispute_to_requester_usd: usd("Returned to requesters by dispute resolutions"),
    dispute_to_operator_usd: usd("Paid to labs by dispute resolutions"),
    still_held_usd: usd("Still in escrow"),
    violations: z
      .array(z.string())
      .openapi({ description: "What does not balance, one line per experiment (empty when balanced)" }),
  })
  .openapi("LedgerCheck");

export const checkLedger = createRoute({
  method: "get",
  path: "/admin/ledger",
  operationId: "checkLedger",
  tags: ["Admin"],
  summary: "Check that the escrow ledger balances, with its totals (staff only)",
  ...restrictedTo("staff"),
  responses: {
    200: jsonResponse("The conservation check", LedgerCheckSchema),
    ...errorResponses({ authenticated: true }),
  },
});
