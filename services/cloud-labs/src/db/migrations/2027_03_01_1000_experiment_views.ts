import type { Kysely } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  // What this service knows of each experiment, from the experiments events (the newest
  // version wins): enough to translate it and to decide who may.
  await db.schema
    .createTable("experiment_views")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("requester_account_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("request_json", "text", (c) => c.notNull())
    .addColumn("version", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("experiment_views").execute();
}
