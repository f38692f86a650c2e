import type { Kysely } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  // What this service knows of each library hypothesis, from the hypotheses service's
  // HypothesisSaved events (the newest version wins): enough to build an experiment request
  // from it and to decide who may (POST /hypotheses/{id}/to-experiment).
  await db.schema
    .createTable("hypothesis_views")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_account_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("statement", "text", (c) => c.notNull())
    .addColumn("null_hypothesis", "text", (c) => c.notNull())
    .addColumn("experiment_type", "text", (c) => c.notNull())
    .addColumn("intake_draft_json", "text", (c) => c.notNull())
    .addColumn("version", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("hypothesis_views").execute();
}
