import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("accounts")
    .addColumn("credentials_epoch", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("credentials_changed_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("accounts_credentials_changed_at_idx")
    .on("accounts")
    .column("credentials_changed_at")
    .where(sql.ref("credentials_changed_at"), "is not", null)
    .execute();
  await db.schema
    .createTable("revoked_access_tokens")
    .addColumn("jti", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("revoked_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("revoked_access_tokens_expires_at_idx")
    .on("revoked_access_tokens")
    .column("expires_at")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("revoked_access_tokens").execute();
  await db.schema.dropIndex("accounts_credentials_changed_at_idx").execute();
  await db.schema.alterTable("accounts").dropColumn("credentials_changed_at").execute();
  await db.schema.alterTable("accounts").dropColumn("credentials_epoch").execute();
}
