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
  type PrepareExperimentFromHypothesisRequest,
  PrepareExperimentFromHypothesisResponseSchema,
  type LinkExperimentToHypothesisRequest,
  LinkExperimentToHypothesisResponseSchema,
  type CreateHypothesisFromExperimentRequest,
  CreateHypothesisFromExperimentResponseSchema,
} from "@petri/contracts/hypotheses";
import type { makeCreateHypothesisFromExperiment } from "../app/create-hypothesis-from-experiment.js";
import type { makeLinkExperiment } from "../app/link-experiment.js";
import type { makePrepareExperimentFromHypothesis } from "../app/prepare-experiment-from-hypothesis.js";
import { kPrincipal } from "@petri/service-kit";
import type { makeArchiveHypothesis } from "../app/archive-hypothesis.js";
import type { makeCreateHypothesis } from "../app/create-hypothesis.js";
import type { makeGetHypothesis } from "../app/get-hypothesis.js";
import type { makeListHypotheses } from "../app/list-hypotheses.js";
import type { makeUpdateHypothesis } from "../app/update-hypothesis.js";
import { type Audience, authorize } from "../domain/authorization.js";
import { hypothesisMessage } from "../contract/hypothesis-message.js";

export interface HypothesesUseCases {
  createHypothesis: ReturnType<typeof makeCreateHypothesis>;
  listHypotheses: ReturnType<typeof makeListHypotheses>;
  getHypothesis: ReturnType<typeof makeGetHypothesis>;
  updateHypothesis: ReturnType<typeof makeUpdateHypothesis>;
  archiveHypothesis: ReturnType<typeof makeArchiveHypothesis>;
  prepareExperimentFromHypothesis: ReturnType<typeof makePrepareExperimentFromHypothesis>;
  linkExperimentToHypothesis: ReturnType<typeof makeLinkExperiment>;
  createHypothesisFromExperiment: ReturnType<typeof makeCreateHypothesisFromExperiment>;
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
  prepareExperimentFromHypothesis: "account",
  linkExperimentToHypothesis: "account",
  createHypothesisFromExperiment: "account",
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

  async prepareExperimentFromHypothesis(
    request: PrepareExperimentFromHypothesisRequest,
    ctx: HandlerContext,
  ) {
    const principal = caller(ctx, "prepareExperimentFromHypothesis");
    const prepared = await this.useCases.prepareExperimentFromHypothesis(principal, {
      hypothesisId: request.hypothesisId,
      additionalFieldsJson: request.additionalFieldsJson,
      idempotencyKey: request.idempotencyKey,
    });
    return create(PrepareExperimentFromHypothesisResponseSchema, {
      requestJson: JSON.stringify(prepared.request),
      idempotencyKey: prepared.idempotencyKey,
      hypothesis: hypothesisMessage(prepared.hypothesis),
    });
  }

  async linkExperimentToHypothesis(request: LinkExperimentToHypothesisRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "linkExperimentToHypothesis");
    const hypothesis = await this.useCases.linkExperimentToHypothesis(principal, {
      hypothesisId: request.hypothesisId,
      experimentId: request.experimentId,
    });
    return create(LinkExperimentToHypothesisResponseSchema, { hypothesis: hypothesisMessage(hypothesis) });
  }

  async createHypothesisFromExperiment(request: CreateHypothesisFromExperimentRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "createHypothesisFromExperiment");
    const hypothesis = await this.useCases.createHypothesisFromExperiment(principal, {
      experimentId: request.experimentId || relayedExperimentId(request),
      title: request.title,
    });
    return create(CreateHypothesisFromExperimentResponseSchema, {
      hypothesis: hypothesisMessage(hypothesis),
    });
  }
}

/** A caller built before experiment_id existed sends the experiment: only its id is used. */
function relayedExperimentId(request: CreateHypothesisFromExperimentRequest): string {
  return request.experiment?.id ?? "";
}
