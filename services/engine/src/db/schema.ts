import type { JsonValue, MessagingTables } from "@petri/db";
import type { ColumnType, Selectable } from "kysely";
import type { RunStatus } from "../domain/run.js";

/** A nullable jsonb column: reads give the parsed value or null; writes take JSON text or null. */
type NullableJsonb<T extends JsonValue> = ColumnType<T | null, string | null, string | null>;

/** One engine run; also the worker's queue (lease_owner, lease_until while RUNNING). */
export interface EngineRunsTable {
  id: string;
  owner_account_id: string;
  status: RunStatus;
  query: string;
  context: string;
  job_type: string;
  experiment_type: string | null;
  progress_stage: string;
  progress_percentage: number;
  /** COMPLETED: the GeneratedHypothesis (domain/generation.ts). */
  result: NullableJsonb<{ [key: string]: JsonValue }>;
  error: string | null;
  error_code: string | null;
  edited_hypothesis: NullableJsonb<{ [key: string]: JsonValue }>;
  attempts: ColumnType<number, number | undefined, number>;
  lease_owner: string | null;
  lease_until: Date | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  updated_at: Date;
}

export type EngineRunRow = Selectable<EngineRunsTable>;

/** Tables of the engine schema. */
export type EngineDb = MessagingTables & {
  engine_runs: EngineRunsTable;
};
