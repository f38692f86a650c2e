import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type ArchiveHypothesisRequest,
  ArchiveHypothesisResponseSchema,
  type CreateHypothesisRequest,
  CreateHypothesisResponseSchema,
  type GetHypothesisRequest,
  GetHypothesisResponseSchema,
  type HypothesesService,
  type ListHypothesesRequest,
  ListHypothesesResponseSchema,
  type UpdateHypothesisRequest,
  UpdateHypothesisResponseSchema,
} from "@petri/contracts/hypotheses";
import { kPrincipal } from "@petri/service-kit";
import type { makeArchiveHypothesis } from "../app/archive-hypothesis.js";
import type { makeCreateHypothesis } from "../app/create-hypothesis.js";
import type { makeGetHypothesis } from "../app/get-hypothesis.js";
import type { makeListHypotheses } from "../app/list-hypotheses.js";
import type { makeUpdateHypothesis } from "../app/update-hypothesis.js";
import { type Audience, authorize } from "../domain/authorization.js";
import { hypothesisMessage } from "./hypothesis-message.js";

export interface HypothesesUseCases {
  createHypothesis: ReturnType<typeof makeCreateHypothesis>;
  listHypotheses: ReturnType<typeof makeListHypotheses>;
  getHypothesis: ReturnType<typeof makeGetHypothesis>;
  updateHypothesis: ReturnType<typeof makeUpdateHypothesis>;
  archiveHypothesis: ReturnType<typeof makeArchiveHypothesis>;
}

/**
 * Who may call each procedure (the first line of each handler checks it; the table is
 * checked against the service descriptor by hypotheses-rpc.test.ts). Ownership of the row is
 * checked by the use case.
 */
export const HYPOTHESES_AUDIENCES = {
  createHypothesis: "account",
  listHypotheses: "account",
  getHypothesis: "account",
  updateHypothesis: "account",
  archiveHypothesis: "account",
} as const satisfies Record<keyof HypothesesUseCases, Audience>;

function caller(ctx: HandlerContext, procedure: keyof typeof HYPOTHESES_AUDIENCES) {
  return authorize(ctx.values.get(kPrincipal), HYPOTHESES_AUDIENCES[procedure]);
}

/** Proto <-> domain mapping and the audience of every procedure; the use cases hold the behaviour. */
export class HypothesesRpc implements ServiceImpl<typeof HypothesesService> {
  constructor(private readonly useCases: HypothesesUseCases) {}

  async createHypothesis(request: CreateHypothesisRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "createHypothesis");
    const hypothesis = await this.useCases.createHypothesis(principal, {
      title: request.title,
      statement: request.statement,
      nullHypothesis: request.nullHypothesis,
      experimentType: request.experimentType,
      intakeDraftJson: request.intakeDraftJson,
      engineAgent: request.engineAgent,
      engineQuery: request.engineQuery,
      engineResponseJson: request.engineResponseJson,
    });
    return create(CreateHypothesisResponseSchema, { hypothesis: hypothesisMessage(hypothesis) });
  }

  async listHypotheses(request: ListHypothesesRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "listHypotheses");
    const page = await this.useCases.listHypotheses(principal, {
      status: request.status,
      experimentType: request.experimentType,
      search: request.search,
      limit: request.limit,
      offset: request.offset,
    });
    return create(ListHypothesesResponseSchema, {
      hypotheses: page.hypotheses.map(hypothesisMessage),
      total: BigInt(page.total),
      limit: page.limit,
      offset: page.offset,
    });
  }

  async getHypothesis(request: GetHypothesisRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "getHypothesis");
    const hypothesis = await this.useCases.getHypothesis(principal, request.hypothesisId);
    return create(GetHypothesisResponseSchema, { hypothesis: hypothesisMessage(hypothesis) });
  }

  async updateHypothesis(request: UpdateHypothesisRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "updateHypothesis");
    const hypothesis = await this.useCases.updateHypothesis(principal, {
      id: request.hypothesisId,
      patch: { title: request.title, statement: request.statement, status: request.status },
    });
    return create(UpdateHypothesisResponseSchema, { hypothesis: hypothesisMessage(hypothesis) });
  }

  async archiveHypothesis(request: ArchiveHypothesisRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "archiveHypothesis");
    const hypothesis = await this.useCases.archiveHypothesis(principal, request.hypothesisId);
    return create(ArchiveHypothesisResponseSchema, { hypothesis: hypothesisMessage(hypothesis) });
  }
}
