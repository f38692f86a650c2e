import { createMessagingTables, dropMessagingTables } from "@petri/db";
import type { Kysely } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  await createMessagingTables(db);
  await db.schema
    .createTable("account_contacts")
    .addColumn("account_id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("account_version", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("account_contacts").execute();
  await dropMessagingTables(db);
}
