import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.

const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "paused"];
const CYCLE_TRIGGERS = ["event", "replay", "resume"];
const MAIL_STATUSES = ["pending", "sent", "failed"];
const literals = (values: readonly string[]) => sql.join(values.map((value) => sql.lit(value)));

export async function up(db: Kysely<any>): Promise<void> {
  // Signing secrets, sealed with the KEK (AES-256-GCM). One current secret per account
  // (retires_at null); a rotated-out one keeps signing until its retires_at.
  await db.schema
    .createTable("webhook_secrets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("kek_id", "text", (c) => c.notNull())
    .addColumn("nonce", "bytea", (c) => c.notNull())
    .addColumn("ciphertext", "bytea", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("revealed_at", "timestamptz")
    .addColumn("retires_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("webhook_secrets_one_current")
    .on("webhook_secrets")
    .column("account_id")
    .unique()
    .where(sql.ref("retires_at"), "is", null)
    .execute();
  await db.schema
    .createIndex("webhook_secrets_by_account")
    .on("webhook_secrets")
    .columns(["account_id", "created_at"])
    .execute();

  // Per-account delivery state: the pause after a fifth failed attempt.
  await db.schema
    .createTable("webhook_accounts")
    .addColumn("account_id", "text", (c) => c.primaryKey())
    .addColumn("paused_at", "timestamptz")
    .addColumn("paused_by_delivery_id", "text")
    .addColumn("pauses", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("resumed_at", "timestamptz")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("experiment_id", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    // The experiments event it announces: one delivery per event, whatever the redeliveries.
    .addColumn("source_event_id", "text", (c) => c.notNull().unique())
    .addColumn("experiment_version", "bigint", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("host_key", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in (${literals(DELIVERY_STATUSES)})`))
    .addColumn("attempt_count", "integer", (c) => c.notNull().defaultTo(0))
    // The current cycle (1 for the event, +1 per replay or resume) and its failed attempts.
    .addColumn("cycle", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("cycle_trigger", "text", (c) =>
      c
        .notNull()
        .defaultTo("event")
        .check(sql`cycle_trigger in (${literals(CYCLE_TRIGGERS)})`),
    )
    .addColumn("cycle_failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz")
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", "timestamptz")
    .addColumn("last_attempt_at", "timestamptz")
    .addColumn("last_response_code", "integer")
    .addColumn("last_latency_ms", "integer")
    .addColumn("last_error", "text")
    .addColumn("delivered_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .addCheckConstraint(
      "webhook_deliveries_pending_is_scheduled",
      sql`(status <> 'pending') or (next_attempt_at is not null)`,
    )
    .execute();
  // The worker's scan: due pending deliveries, oldest due first.
  await db.schema
    .createIndex("webhook_deliveries_due")
    .on("webhook_deliveries")
    .columns(["next_attempt_at", "id"])
    .where(sql.ref("status"), "=", "pending")
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_by_account")
    .on("webhook_deliveries")
    .columns(["account_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_by_experiment")
    .on("webhook_deliveries")
    .columns(["experiment_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("webhook_attempts")
    .addColumn("delivery_id", "text", (c) => c.notNull().references("webhook_deliveries.id"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("cycle", "integer", (c) => c.notNull())
    .addColumn("trigger", "text", (c) => c.notNull().check(sql`trigger in (${literals(CYCLE_TRIGGERS)})`))
    .addColumn("attempted_at", "timestamptz", (c) => c.notNull())
    .addColumn("response_code", "integer")
    .addColumn("latency_ms", "integer", (c) => c.notNull())
    .addColumn("succeeded", "boolean", (c) => c.notNull())
    .addColumn("error", "text")
    .addPrimaryKeyConstraint("webhook_attempts_pk", ["delivery_id", "number"])
    .execute();

  // POST /webhooks/test draws from a fixed per-minute window per account.
  await db.schema
    .createTable("webhook_test_windows")
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("window_start", "timestamptz", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("webhook_test_windows_pk", ["account_id", "window_start"])
    .execute();

  // E-mail to send, written in the transaction that decides it (an outbox for mail).
  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in (${literals(MAIL_STATUSES)})`))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull())
    .addColumn("lease_until", "timestamptz")
    .addColumn("last_error", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("mail_outbox_due")
    .on("mail_outbox")
    .columns(["next_attempt_at", "id"])
    .where(sql.ref("status"), "=", "pending")
    .execute();

  // Every e-mail sent, whatever the transport; the standalone default keeps mail only here.
  await db.schema
    .createTable("sent_mail")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("transport", "text", (c) => c.notNull())
    .addColumn("message_id", "text")
    .addColumn("sent_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sent_mail_by_time").on("sent_mail").columns(["sent_at", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "sent_mail",
    "mail_outbox",
    "webhook_test_windows",
    "webhook_attempts",
    "webhook_deliveries",
    "webhook_accounts",
    "webhook_secrets",
  ])
    await db.schema.dropTable(table).execute();
}
