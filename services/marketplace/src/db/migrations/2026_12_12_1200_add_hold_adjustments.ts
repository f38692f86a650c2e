import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
const KINDS = ["hold", "hold_adjustment", "release", "refund", "compensation", "dispute_resolution"];

export async function up(db: Kysely<any>): Promise<void> {
  // A hold adjustment may happen several times per experiment: postings are unique per
  // (experiment, kind, key), the key being the experiment version for an adjustment and ""
  // for every once-only kind, so a replayed event still never moves money twice.
  await db.schema
    .alterTable("ledger_postings")
    .addColumn("key", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  // Recording order: postings of one event share their timestamp, and an experiment's history
  // must read back in the order it happened.
  await db.schema
    .alterTable("ledger_postings")
    .addColumn("seq", "bigint", (c) => c.generatedAlwaysAsIdentity())
    .execute();
  await db.schema
    .alterTable("ledger_postings")
    .dropConstraint("ledger_postings_experiment_kind_key")
    .execute();
  await db.schema
    .alterTable("ledger_postings")
    .addUniqueConstraint("ledger_postings_experiment_kind_key_key", ["experiment_id", "kind", "key"])
    .execute();
  await db.schema.alterTable("ledger_postings").dropConstraint("ledger_postings_kind_check").execute();
  const kindList = sql.join(KINDS.map((kind) => sql.lit(kind)));
  await db.schema
    .alterTable("ledger_postings")
    .addCheckConstraint("ledger_postings_kind_check", sql`kind in (${kindList})`)
    .execute();
  await db.schema
    .alterTable("ledger_postings")
    .addCheckConstraint("ledger_postings_key_check", sql`(kind = 'hold_adjustment') = (key <> '')`)
    .execute();

  // The hold each experiment should have and the experiment version that set it, so a late
  // re-estimate (an older version) is recognised even when the newer one moved nothing.
  await db.schema
    .createTable("escrow_hold_targets")
    .addColumn("experiment_id", "text", (c) => c.primaryKey())
    .addColumn("target_cents", "bigint", (c) => c.notNull().check(sql`target_cents >= 0`))
    .addColumn("target_version", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("escrow_hold_targets").execute();
  await db.deleteFrom("ledger_postings").where("kind", "=", "hold_adjustment").execute();
  await db.schema.alterTable("ledger_postings").dropConstraint("ledger_postings_key_check").execute();
  await db.schema.alterTable("ledger_postings").dropConstraint("ledger_postings_kind_check").execute();
  await db.schema
    .alterTable("ledger_postings")
    .addCheckConstraint(
      "ledger_postings_kind_check",
      sql`kind in ('hold', 'release', 'refund', 'compensation', 'dispute_resolution')`,
    )
    .execute();
  await db.schema
    .alterTable("ledger_postings")
    .dropConstraint("ledger_postings_experiment_kind_key_key")
    .execute();
  await db.schema
    .alterTable("ledger_postings")
    .addUniqueConstraint("ledger_postings_experiment_kind_key", ["experiment_id", "kind"])
    .execute();
  await db.schema.alterTable("ledger_postings").dropColumn("seq").execute();
  await db.schema.alterTable("ledger_postings").dropColumn("key").execute();
}
