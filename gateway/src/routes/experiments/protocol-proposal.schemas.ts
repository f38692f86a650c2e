/** The staff protocol proposal of a protocol design request, as experiments answer it (D359). */
import { z } from "@hono/zod-openapi";
import { PROPOSAL_AUTHOR_ROLES, PROPOSAL_STEPS } from "@petri/contracts";
import { dateTime } from "../../lib/schema-shapes.js";

export const ProtocolProposalSchema = z
  .object({
    revision: z
      .number()
      .int()
      .openapi({ description: "1 for the first proposal, one more for each after it" }),
    status: z.enum(PROPOSAL_STEPS),
    protocol: z.record(z.string(), z.unknown()).openapi({
      description: "The protocol as staff proposed it, in the shape of a request's protocol.custom_protocol",
    }),
    note: z.string(),
    proposed_by: z.string().openapi({ description: "The staff account that proposed it" }),
    proposed_at: dateTime(),
    decided_at: dateTime("When the requester accepted it or asked for changes").nullable(),
    estimated_cost_cents: z
      .object({ low: z.number().int(), typical: z.number().int(), high: z.number().int() })
      .nullable()
      .openapi({
        description: "The experiment's price with this protocol, in cents; null if staff gave none",
      }),
    comments: z
      .array(
        z.object({
          revision: z.number().int(),
          kind: z.enum(PROPOSAL_STEPS),
          author_account_id: z.string(),
          author_role: z.enum(PROPOSAL_AUTHOR_ROLES),
          text: z.string(),
          at: dateTime(),
        }),
      )
      .openapi({ description: "Every revision's proposal, change request and acceptance, oldest first" }),
  })
  .openapi("ProtocolProposal");
