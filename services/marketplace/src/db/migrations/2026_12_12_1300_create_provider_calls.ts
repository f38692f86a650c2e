import type { Kysely } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  // The payment provider's reference for every call that carried out a posting, written in
  // the posting's transaction (the provider dedupes a retried call by its idempotency key).
  await db.schema
    .createTable("ledger_provider_calls")
    .addColumn("posting_id", "text", (c) => c.notNull().references("ledger_postings.id").onDelete("cascade"))
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("provider_reference", "text", (c) => c.notNull())
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("ledger_provider_calls_pkey", ["posting_id", "idempotency_key"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ledger_provider_calls").execute();
}
