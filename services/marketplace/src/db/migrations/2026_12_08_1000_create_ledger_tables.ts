import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  // One posting per (experiment, kind): a replayed event can never move money twice.
  await db.schema
    .createTable("ledger_postings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("experiment_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) =>
      c.notNull().check(sql`kind in ('hold', 'release', 'refund', 'compensation', 'dispute_resolution')`),
    )
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addUniqueConstraint("ledger_postings_experiment_kind_key", ["experiment_id", "kind"])
    .execute();

  // Signed amounts in integer cents: > 0 debit (money arrives), < 0 credit (money leaves);
  // the entries of a posting sum to zero (checked by the repository before insert and by the
  // conservation query).
  await db.schema
    .createTable("ledger_entries")
    .addColumn("posting_id", "text", (c) => c.notNull().references("ledger_postings.id").onDelete("cascade"))
    .addColumn("account", "text", (c) => c.notNull())
    .addColumn("amount_cents", "bigint", (c) => c.notNull().check(sql`amount_cents <> 0`))
    .addPrimaryKeyConstraint("ledger_entries_pkey", ["posting_id", "account"])
    .execute();
  await db.schema.createIndex("ledger_entries_account_idx").on("ledger_entries").column("account").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ledger_entries").execute();
  await db.schema.dropTable("ledger_postings").execute();
}
