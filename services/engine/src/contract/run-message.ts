/**
 * Engine runs as messages (petri.engine.v1.EngineRun): absent optional values are "". The result
 * and the edit travel typed and as JSON text while gateways built before may run (D356).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type EngineRun, EngineProgressSchema, EngineRunSchema } from "@petri/contracts/engine";
import type { EngineRunRow } from "../db/schema.js";
import { STORED, editedHypothesisMessage, resultMessage } from "./result-message.js";

const jsonText = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));
const timestamp = (value: Date | null) => (value ? timestampFromDate(value) : undefined);

export function runMessage(run: EngineRunRow): EngineRun {
  return create(EngineRunSchema, {
    runId: run.id,
    ownerAccountId: run.owner_account_id,
    status: run.status,
    query: run.query,
    context: run.context,
    jobType: run.job_type,
    experimentType: run.experiment_type ?? "",
    progress: create(EngineProgressSchema, {
      stage: run.progress_stage,
      percentage: run.progress_percentage,
    }),
    resultJson: jsonText(run.result),
    error: run.error ?? "",
    errorCode: run.error_code ?? "",
    editedHypothesisJson: jsonText(run.edited_hypothesis),
    attempts: run.attempts,
    createdAt: timestamp(run.created_at),
    startedAt: timestamp(run.started_at),
    completedAt: timestamp(run.completed_at),
    updatedAt: timestamp(run.updated_at),
    result: resultMessage(run.result, STORED),
    editedHypothesis: editedHypothesisMessage(run.edited_hypothesis),
  });
}
