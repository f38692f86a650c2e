import { type ColumnType, type Generated, type GeneratedAlways, type Kysely, sql } from "kysely";

/** A value stored in a jsonb column, as read back (parsed) on both engines. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * jsonb column: reads give the parsed value; writes take JSON text (`JSON.stringify(x)` or
 * `jsonb(x)`), which both engines store identically. (pg would send a JavaScript array
 * parameter as a PostgreSQL array literal, which is not JSON.)
 */
export type JsonbColumn<T extends JsonValue = JsonValue> = ColumnType<T, string, string>;

/** Transactional outbox: written in the same transaction as the state change it announces. */
export interface OutboxTable {
  seq: GeneratedAlways<number>;
  /** Event id, "evt_..."; unique. */
  id: string;
  subject: string;
  type: string;
  aggregate_id: string;
  aggregate_version: number;
  /** Serialised petri.common.v1.EventEnvelope. */
  envelope: Uint8Array;
  traceparent: string | null;
  created_at: Generated<Date>;
  sent_at: Date | null;
  lease_until: Date | null;
  attempts: Generated<number>;
  last_error: string | null;
}

/** Events a consumer has applied, recorded in the same transaction as the effect. */
export interface InboxTable {
  consumer: string;
  event_id: string;
  processed_at: Generated<Date>;
}

export interface DeadLettersTable {
  id: GeneratedAlways<number>;
  consumer: string;
  event_id: string;
  subject: string;
  type: string;
  envelope: Uint8Array;
  reason: string;
  attempts: number;
  failed_at: Generated<Date>;
  /** When staff replayed it successfully (null while pending); see addDeadLetterReplayColumns. */
  replayed_at: Date | null;
  /** Who replayed it (the staff account id). */
  replayed_by: string | null;
}

export type IdempotencyStatus = "in_progress" | "completed";

export interface IdempotencyKeysTable {
  principal: string;
  key: string;
  request_hash: string;
  status: IdempotencyStatus;
  response_status: number | null;
  response_body: ColumnType<JsonValue | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
  completed_at: Date | null;
}

/** Tables every service schema holds; a service's DB interface extends this. */
export interface MessagingTables {
  outbox: OutboxTable;
  inbox: InboxTable;
  dead_letters: DeadLettersTable;
  idempotency_keys: IdempotencyKeysTable;
}

/**
 * Creates the messaging tables. Call from a service's first migration with the `db` the
 * migrator passes in (bound to the service's schema), so the tables land in that schema.
 */
export async function createMessagingTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("outbox")
    .addColumn("seq", "bigint", (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn("id", "text", (col) => col.notNull().unique())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("aggregate_id", "text", (col) => col.notNull())
    .addColumn("aggregate_version", "bigint", (col) => col.notNull())
    .addColumn("envelope", "bytea", (col) => col.notNull())
    .addColumn("traceparent", "text")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("sent_at", "timestamptz")
    .addColumn("lease_until", "timestamptz")
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .execute();
  // The relay's scan: unsent rows in order.
  await db.schema
    .createIndex("outbox_unsent_idx")
    .on("outbox")
    .column("seq")
    .where(sql.ref("sent_at"), "is", null)
    .execute();

  await db.schema
    .createTable("inbox")
    .addColumn("consumer", "text", (col) => col.notNull())
    .addColumn("event_id", "text", (col) => col.notNull())
    .addColumn("processed_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("inbox_pkey", ["consumer", "event_id"])
    .execute();

  await db.schema
    .createTable("dead_letters")
    .addColumn("id", "bigint", (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn("consumer", "text", (col) => col.notNull())
    .addColumn("event_id", "text", (col) => col.notNull())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("envelope", "bytea", (col) => col.notNull())
    .addColumn("reason", "text", (col) => col.notNull())
    .addColumn("attempts", "integer", (col) => col.notNull())
    .addColumn("failed_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("dead_letters_consumer_event_id_key", ["consumer", "event_id"])
    .execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("principal", "text", (col) => col.notNull())
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("request_hash", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull().check(sql`status in ('in_progress', 'completed')`))
    .addColumn("response_status", "integer")
    .addColumn("response_body", "jsonb")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("completed_at", "timestamptz")
    .addPrimaryKeyConstraint("idempotency_keys_pkey", ["principal", "key"])
    .execute();
}

/**
 * Adds dead letters' replay marks (replayed_at, replayed_by). Nullable, so older code that
 * writes dead letters keeps working during a rolling update. Each service calls it from one
 * migration after its first.
 */
export async function addDeadLetterReplayColumns(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("dead_letters")
    .addColumn("replayed_at", "timestamptz")
    .addColumn("replayed_by", "text")
    .execute();
  // The staff list: pending dead letters, newest first.
  await db.schema
    .createIndex("dead_letters_pending_idx")
    .on("dead_letters")
    .columns(["failed_at", "id"])
    .where(sql.ref("replayed_at"), "is", null)
    .execute();
}

export async function dropDeadLetterReplayColumns(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("dead_letters_pending_idx").ifExists().execute();
  await db.schema.alterTable("dead_letters").dropColumn("replayed_by").dropColumn("replayed_at").execute();
}

/** Drops what createMessagingTables created (for the first migration's `down`). */
export async function dropMessagingTables(db: Kysely<any>): Promise<void> {
  for (const table of ["idempotency_keys", "dead_letters", "inbox", "outbox"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
