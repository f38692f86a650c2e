import { createMessagingTables, dropMessagingTables } from "@petri/db";
import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  await createMessagingTables(db);
  await db.schema
    .createTable("accounts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("organization", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('requester', 'operator', 'staff')`))
    .addColumn("tier", "text", (c) => c.notNull().check(sql`tier in ('standard', 'pro', 'ai_agent')`))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("accounts").execute();
  await dropMessagingTables(db);
}
