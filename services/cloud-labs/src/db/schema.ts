import type { ExperimentViewsTable } from "@petri/events";
import type { JsonValue, MessagingTables } from "@petri/db";
import type { ColumnType, Selectable } from "kysely";
import type { SubmissionStatus } from "../domain/submission.js";

/** A jsonb column: reads give the parsed value; writes take JSON text. */
type Jsonb<T extends JsonValue> = ColumnType<T, string, string>;
type NullableJsonb<T extends JsonValue> = ColumnType<T | null, string | null, string | null>;
/** bigint: node-postgres reads it as text, so every read goes through Number(). */
type BigIntColumn = ColumnType<number, number, number>;

export interface SubmissionsTable {
  id: string;
  owner_account_id: string;
  experiment_id: string;
  provider_id: string;
  /** "sandbox" or "http": which adapter sends and polls it. */
  adapter: string;
  provider_submission_id: string | null;
  protocol_format: string;
  translated_protocol: Jsonb<{ [key: string]: JsonValue }>;
  /** The LabPlan the protocol was made from. */
  plan: Jsonb<{ [key: string]: JsonValue }>;
  status: SubmissionStatus;
  results: NullableJsonb<{ [key: string]: JsonValue }>;
  error: string | null;
  estimated_cost_cents: BigIntColumn;
  turnaround_min_days: number;
  turnaround_max_days: number;
  cancel_requested: ColumnType<boolean, boolean | undefined, boolean>;
  send_attempts: ColumnType<number, number | undefined, number>;
  /** When the worker should next send or poll it. */
  next_check_at: Date;
  lease_owner: string | null;
  lease_until: Date | null;
  version: BigIntColumn;
  created_at: Date;
  submitted_at: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
  updated_at: Date;
}

export type SubmissionRow = Selectable<SubmissionsTable>;

/** Tables of the cloudlabs schema. */
export type CloudLabsDb = MessagingTables & {
  submissions: SubmissionsTable;
  experiment_views: ExperimentViewsTable;
};
