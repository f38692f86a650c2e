import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type ExperimentsService,
  type GetDisputeRequest,
  GetDisputeResponseSchema,
  type ListDisputesRequest,
  ListDisputesResponseSchema,
  type ResolveDisputeRequest,
  ResolveDisputeResponseSchema,
} from "@petri/contracts/experiments";
import { ValidationError } from "@petri/service-kit";
import { caller } from "./audiences.js";
import { disputeMessage, experimentMessage } from "../contract/experiment-message.js";
import { evaluationForms, resultsForms } from "../contract/results-message.js";
import type { ExperimentsUseCases } from "./use-cases.js";

/** Cents from the wire as a safe integer, else 422 naming the field. */
function cents(field: string, value: bigint): number {
  if (value < BigInt(Number.MIN_SAFE_INTEGER) || value > BigInt(Number.MAX_SAFE_INTEGER))
    throw new ValidationError(`${field} is out of range`, [
      { field, code: "invalid_value", message: `${field} must be whole cents within a safe range` },
    ]);
  return Number(value);
}

/** Staff handling of disputes: proto <-> domain mapping only. */
export function disputesRpc(useCases: ExperimentsUseCases) {
  return {
    async listDisputes(request: ListDisputesRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "listDisputes");
      const page = await useCases.listDisputes(principal, {
        status: request.status,
        limit: request.limit,
        cursor: request.cursor,
        includeTotal: request.includeTotal,
      });
      return create(ListDisputesResponseSchema, {
        disputes: page.disputes.map(disputeMessage),
        total: BigInt(page.total ?? 0),
        hasTotal: page.total !== undefined,
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      });
    },

    async getDispute(request: GetDisputeRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "getDispute");
      const view = await useCases.getDispute(principal, request.disputeId);
      return create(GetDisputeResponseSchema, {
        dispute: disputeMessage(view.dispute),
        experiment: experimentMessage(view.experiment),
        ...resultsForms(view.results),
        ...evaluationForms(view.evaluation),
        urlsExpireAt: timestampFromDate(view.urlsExpireAt),
      });
    },

    async resolveDispute(request: ResolveDisputeRequest, ctx: HandlerContext) {
      const principal = caller(ctx, "resolveDispute");
      const resolved = await useCases.resolveDispute(principal, {
        disputeId: request.disputeId,
        outcome: request.outcome,
        requesterAmountCents: cents("requester_amount_cents", request.requesterAmountCents),
        operatorAmountCents: cents("operator_amount_cents", request.operatorAmountCents),
        note: request.note,
      });
      return create(ResolveDisputeResponseSchema, {
        dispute: disputeMessage(resolved.dispute),
        experiment: experimentMessage(resolved.experiment),
      });
    },
  } satisfies Partial<ServiceImpl<typeof ExperimentsService>>;
}
