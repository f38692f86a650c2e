import type { ExperimentViewsTable } from "@petri/events";
import type { JsonValue, MessagingTables } from "@petri/db";
import type { ColumnType, Selectable } from "kysely";
import type { HypothesisStatus } from "../domain/hypothesis.js";

/** A nullable jsonb column: reads give the parsed value or null; writes take JSON text or null. */
type NullableJsonb<T extends JsonValue> = ColumnType<T | null, string | null, string | null>;

/** One hypothesis of an account's library. */
export interface HypothesesTable {
  id: string;
  owner_account_id: string;
  title: string;
  statement: string;
  null_hypothesis: string | null;
  experiment_type: string | null;
  status: HypothesisStatus;
  intake_draft: NullableJsonb<{ [key: string]: JsonValue }>;
  experiments_count: ColumnType<number, number | undefined, number>;
  engine_agent: string | null;
  engine_query: string | null;
  engine_response: NullableJsonb<{ [key: string]: JsonValue }>;
  source_experiment_id: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export type HypothesisRow = Selectable<HypothesesTable>;

/** Each experiment created from a hypothesis, once (experiments_count counts these). */
export interface HypothesisExperimentsTable {
  hypothesis_id: string;
  experiment_id: string;
  linked_at: Date;
}

/** Tables of the hypotheses schema. */
export type HypothesesDb = MessagingTables & {
  hypotheses: HypothesesTable;
  hypothesis_experiments: HypothesisExperimentsTable;
  experiment_views: ExperimentViewsTable;
};
