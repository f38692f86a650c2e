import type { RouteHandler, z } from "@hono/zod-openapi";
import {
  EditedHypothesisSchema,
  type EngineResult as EngineResultMessage,
  EngineResultSchema as EngineResultMessageSchema,
  type EngineRun,
} from "@petri/contracts/engine";
import { BULK_CALL_TIMEOUT_MS, asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { typedOrText } from "../../lib/json-text.js";
import { callService } from "../../lib/service-call.js";
import { isoOrNull } from "../../lib/timestamps.js";
import type * as routes from "./engine.routes.js";

type EngineResult = z.infer<typeof routes.EngineResultSchema>;
type EditedHypothesis = { statement: string; null_hypothesis: string };

/**
 * The result and the edit, typed since D356, else their JSON text (a service built before).
 * A run's come from the engine's jsonb columns: the text has jsonb's key order, which the REST
 * answer has always had, so the message is written in that order; the synchronous answer is
 * written as the pipeline built it, in field order.
 */
const STORED = { keys: "jsonb" } as const;

function resultJson(typed: EngineResultMessage | undefined, text: string, stored: boolean) {
  const sent = { service: "engine", what: "a result" };
  const result = typedOrText(EngineResultMessageSchema, typed, text, sent, stored ? STORED : {});
  return result as unknown as EngineResult | null;
}

function editedJson(run: EngineRun) {
  const sent = { service: "engine", what: "an edited hypothesis" };
  const edited = typedOrText(
    EditedHypothesisSchema,
    run.editedHypothesis,
    run.editedHypothesisJson,
    sent,
    STORED,
  );
  return edited as unknown as EditedHypothesis | null;
}

function runJson(run: EngineRun | undefined) {
  if (!run) throw new Error("the engine service returned no run");
  return {
    run_id: run.runId,
    status: run.status,
    query: run.query,
    context: run.context || null,
    job_type: run.jobType,
    experiment_type: run.experimentType || null,
    progress: { stage: run.progress?.stage ?? "queued", percentage: run.progress?.percentage ?? 0 },
    result: resultJson(run.result, run.resultJson, true),
    edited_hypothesis: editedJson(run),
    error: run.error || null,
    error_code: run.errorCode || null,
    attempts: run.attempts,
    created_at: isoOrNull(run.createdAt)!,
    started_at: isoOrNull(run.startedAt),
    completed_at: isoOrNull(run.completedAt),
  };
}

function summaryJson(run: EngineRun) {
  return {
    run_id: run.runId,
    query: run.query,
    status: run.status,
    job_type: run.jobType,
    experiment_type: run.experimentType || null,
    created_at: isoOrNull(run.createdAt)!,
    completed_at: isoOrNull(run.completedAt),
  };
}

export const generateHypothesisHandler: RouteHandler<typeof routes.generateHypothesis, GatewayEnv> = async (
  c,
) => {
  const body = c.req.valid("json");
  // The engine bounds the work itself; the call's deadline only has to outlast it.
  const answer = await callService(() =>
    c
      .get("runtime")
      .clients.engine.generateHypothesis(
        { query: body.query, context: body.context ?? "", experimentType: body.experiment_type ?? "" },
        asCaller(BULK_CALL_TIMEOUT_MS),
      ),
  );
  const result = resultJson(answer.result, answer.resultJson, false);
  if (!result) throw new Error("the engine service sent no result");
  return c.json(result, 200);
};

export const startRunHandler: RouteHandler<typeof routes.startRun, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const { run } = await callService(() =>
    c.get("runtime").clients.engine.startEngineRun(
      {
        query: body.query,
        jobType: body.job_type ?? "",
        experimentType: body.experiment_type ?? "",
        context: body.context ?? "",
      },
      asCaller(),
    ),
  );
  const record = runJson(run);
  c.header("Location", `/cloud-labs/engine/runs/${record.run_id}`);
  return c.json(record, 202);
};

export const getActiveRunHandler: RouteHandler<typeof routes.getActiveRun, GatewayEnv> = async (c) => {
  const { run } = await callService(() => c.get("runtime").clients.engine.getActiveEngineRun({}, asCaller()));
  return c.json(run ? runJson(run) : null, 200);
};

export const listRunsHandler: RouteHandler<typeof routes.listRuns, GatewayEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await callService(() =>
    c
      .get("runtime")
      .clients.engine.listEngineRuns(
        { status: query.status ?? "", limit: query.limit, offset: query.offset },
        asCaller(),
      ),
  );
  return c.json(
    { runs: page.runs.map(summaryJson), total: Number(page.total), limit: page.limit, offset: page.offset },
    200,
  );
};

export const getRunHandler: RouteHandler<typeof routes.getRun, GatewayEnv> = async (c) => {
  const { run_id } = c.req.valid("param");
  const { run } = await callService(() =>
    c.get("runtime").clients.engine.getEngineRun({ runId: run_id }, asCaller()),
  );
  return c.json(runJson(run), 200);
};

export const editDraftHandler: RouteHandler<typeof routes.editDraft, GatewayEnv> = async (c) => {
  const { run_id } = c.req.valid("param");
  const { edited_hypothesis } = c.req.valid("json");
  const { run } = await callService(() =>
    c.get("runtime").clients.engine.updateEngineRunDraft(
      {
        runId: run_id,
        statement: edited_hypothesis.statement,
        nullHypothesis: edited_hypothesis.null_hypothesis,
      },
      asCaller(),
    ),
  );
  return c.json(runJson(run), 200);
};

export const clearHistoryHandler: RouteHandler<typeof routes.clearHistory, GatewayEnv> = async (c) => {
  const { deletedCount } = await callService(() =>
    c.get("runtime").clients.engine.clearEngineRunHistory({}, asCaller()),
  );
  return c.json({ deleted_count: Number(deletedCount) }, 200);
};
