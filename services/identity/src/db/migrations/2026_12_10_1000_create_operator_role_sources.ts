import type { Kysely } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("operator_role_sources")
    .addColumn("account_id", "text", (c) => c.primaryKey())
    .addColumn("operator_id", "text", (c) => c.notNull())
    .addColumn("operator_status", "text", (c) => c.notNull())
    .addColumn("operator_version", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("operator_role_sources").execute();
}
