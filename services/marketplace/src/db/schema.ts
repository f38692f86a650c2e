import type { JsonbColumn, JsonValue, MessagingTables } from "@petri/db";
import type { ColumnType, GeneratedAlways, Selectable } from "kysely";
import type { OperatorStatusName } from "@petri/contracts/vocabulary";
import type { PostingKind } from "../domain/ledger/postings.js";

/** A nullable jsonb column: reads give the parsed value or null; writes take JSON text or null. */
type NullableJsonb<T extends JsonValue> = ColumnType<T | null, string | null, string | null>;

/** One posting per (experiment, kind, key); the key is "" except for hold adjustments. */
export interface LedgerPostingsTable {
  id: string;
  experiment_id: string;
  kind: PostingKind;
  key: ColumnType<string, string | undefined, string>;
  /** Recording order. */
  seq: GeneratedAlways<number>;
  created_at: Date;
}

/** Signed change of `account` in integer cents (> 0 debit, < 0 credit, never 0). */
export interface LedgerEntriesTable {
  posting_id: string;
  account: string;
  amount_cents: number;
}

/** The hold an experiment should have, and the experiment version that set it. */
export interface EscrowHoldTargetsTable {
  experiment_id: string;
  target_cents: number;
  target_version: number;
  updated_at: Date;
}

/** A payment-provider call that carried out a posting, with the provider's reference. */
export interface LedgerProviderCallsTable {
  posting_id: string;
  idempotency_key: string;
  method: string;
  provider: string;
  provider_reference: string;
  amount_cents: number;
  created_at: Date;
}

export interface LedgerTables {
  ledger_postings: LedgerPostingsTable;
  ledger_entries: LedgerEntriesTable;
  escrow_hold_targets: EscrowHoldTargetsTable;
  ledger_provider_calls: LedgerProviderCallsTable;
}

/** One lab per account: declared profile, staff verification, status and computed quality. */
export interface OperatorsTable {
  id: string;
  account_id: string;
  status: OperatorStatusName;
  profile: JsonbColumn<{ [key: string]: JsonValue }>;
  verification: NullableJsonb<{ [key: string]: JsonValue }>;
  status_reason: string | null;
  lab_name: string;
  quality: JsonbColumn<{ [key: string]: JsonValue }>;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export type OperatorRow = Selectable<OperatorsTable>;

/** What one job taught about its operator (quality metrics are aggregated from these). */
export interface OperatorJobOutcomesTable {
  operator_id: string;
  experiment_id: string;
  completed: ColumnType<boolean, boolean | undefined, boolean>;
  on_time: boolean | null;
  rating: number | null;
  disputed: ColumnType<boolean, boolean | undefined, boolean>;
  dispute_outcome: string | null;
  updated_at: Date;
}

/** The experiments service's experiments as the job feed sees them (a projection of its events). */
export interface JobsTable {
  experiment_id: string;
  status: string;
  requester_account_id: string;
  title: string;
  requirements: JsonbColumn<{ [key: string]: JsonValue }>;
  posted_at: Date | null;
  operator_id: string | null;
  version: number;
  updated_at: Date;
}

export type JobRow = Selectable<JobsTable>;

/** Tables of the marketplace schema. */
export type MarketplaceDb = MessagingTables &
  LedgerTables & {
    operators: OperatorsTable;
    operator_job_outcomes: OperatorJobOutcomesTable;
    jobs: JobsTable;
  };
