import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  ClearEngineRunHistoryResponseSchema,
  type EngineService,
  type GenerateHypothesisRequest,
  GenerateHypothesisResponseSchema,
  GetActiveEngineRunResponseSchema,
  type GetEngineRunRequest,
  GetEngineRunResponseSchema,
  type ListEngineRunsRequest,
  ListEngineRunsResponseSchema,
  type StartEngineRunRequest,
  StartEngineRunResponseSchema,
  type UpdateEngineRunDraftRequest,
  UpdateEngineRunDraftResponseSchema,
} from "@petri/contracts/engine";
import { type AccountAudience, authorizeAccount, kPrincipal } from "@petri/service-kit";
import type { makeClearRunHistory } from "../app/clear-run-history.js";
import type { makeGenerateHypothesis } from "../app/generate-hypothesis.js";
import type { makeGetActiveRun } from "../app/get-active-run.js";
import type { makeGetRun } from "../app/get-run.js";
import type { makeListRuns } from "../app/list-runs.js";
import type { makeStartRun } from "../app/start-run.js";
import type { makeUpdateRunDraft } from "../app/update-run-draft.js";
import { runMessage } from "../contract/run-message.js";
import { resultMessage } from "../contract/result-message.js";

export interface EngineUseCases {
  startEngineRun: ReturnType<typeof makeStartRun>;
  getActiveEngineRun: ReturnType<typeof makeGetActiveRun>;
  listEngineRuns: ReturnType<typeof makeListRuns>;
  getEngineRun: ReturnType<typeof makeGetRun>;
  updateEngineRunDraft: ReturnType<typeof makeUpdateRunDraft>;
  clearEngineRunHistory: ReturnType<typeof makeClearRunHistory>;
  generateHypothesis: ReturnType<typeof makeGenerateHypothesis>;
}

/**
 * Who may call each procedure: any account for itself (runs are private to their owner, staff
 * included; another account's run is 404). Checked against the contract by engine-rpc.test.ts.
 */
export const ENGINE_AUDIENCES = {
  startEngineRun: "account",
  getActiveEngineRun: "account",
  listEngineRuns: "account",
  getEngineRun: "account",
  updateEngineRunDraft: "account",
  clearEngineRunHistory: "account",
  generateHypothesis: "account",
} as const satisfies Record<keyof EngineUseCases, AccountAudience>;

function caller(ctx: HandlerContext, procedure: keyof typeof ENGINE_AUDIENCES) {
  return authorizeAccount(ctx.values.get(kPrincipal), ENGINE_AUDIENCES[procedure]);
}

/** Proto <-> domain mapping and the audience of every procedure; the use cases hold the behaviour. */
export class EngineRpc implements ServiceImpl<typeof EngineService> {
  constructor(private readonly useCases: EngineUseCases) {}

  async startEngineRun(request: StartEngineRunRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "startEngineRun");
    const run = await this.useCases.startEngineRun(principal, {
      query: request.query,
      context: request.context,
      jobType: request.jobType,
      experimentType: request.experimentType,
    });
    return create(StartEngineRunResponseSchema, { run: runMessage(run) });
  }

  async getActiveEngineRun(_request: unknown, ctx: HandlerContext) {
    const principal = caller(ctx, "getActiveEngineRun");
    const run = await this.useCases.getActiveEngineRun(principal);
    return create(GetActiveEngineRunResponseSchema, run ? { run: runMessage(run) } : {});
  }

  async listEngineRuns(request: ListEngineRunsRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "listEngineRuns");
    const page = await this.useCases.listEngineRuns(principal, {
      status: request.status,
      limit: request.limit,
      offset: request.offset,
    });
    return create(ListEngineRunsResponseSchema, {
      runs: page.runs.map(runMessage),
      total: BigInt(page.total),
      limit: page.limit,
      offset: page.offset,
    });
  }

  async getEngineRun(request: GetEngineRunRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "getEngineRun");
    const run = await this.useCases.getEngineRun(principal, request.runId);
    return create(GetEngineRunResponseSchema, { run: runMessage(run) });
  }

  async updateEngineRunDraft(request: UpdateEngineRunDraftRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "updateEngineRunDraft");
    const run = await this.useCases.updateEngineRunDraft(principal, {
      runId: request.runId,
      statement: request.statement,
      nullHypothesis: request.nullHypothesis,
    });
    return create(UpdateEngineRunDraftResponseSchema, { run: runMessage(run) });
  }

  async clearEngineRunHistory(_request: unknown, ctx: HandlerContext) {
    const principal = caller(ctx, "clearEngineRunHistory");
    const deleted = await this.useCases.clearEngineRunHistory(principal);
    return create(ClearEngineRunHistoryResponseSchema, { deletedCount: BigInt(deleted) });
  }

  async generateHypothesis(request: GenerateHypothesisRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "generateHypothesis");
    const result = await this.useCases.generateHypothesis(principal, {
      query: request.query,
      context: request.context,
      experimentType: request.experimentType,
    });
    return create(GenerateHypothesisResponseSchema, {
      resultJson: JSON.stringify(result),
      result: resultMessage(result),
    });
  }
}
