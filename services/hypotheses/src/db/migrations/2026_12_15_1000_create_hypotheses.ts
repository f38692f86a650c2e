import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
const STATUSES = ["DRAFT", "USED", "ARCHIVED"];

export async function up(db: Kysely<any>): Promise<void> {
  const statusList = sql.join(STATUSES.map((status) => sql.lit(status)));
  // Each account's hypothesis library; archived rows stay (soft delete).
  await db.schema
    .createTable("hypotheses")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_account_id", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("statement", "text", (c) => c.notNull())
    .addColumn("null_hypothesis", "text")
    .addColumn("experiment_type", "text")
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in (${statusList})`))
    .addColumn("intake_draft", "jsonb")
    .addColumn("experiments_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("engine_agent", "text")
    .addColumn("engine_query", "text")
    .addColumn("engine_response", "jsonb")
    .addColumn("version", "bigint", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
  // The owner's listing, newest first, by status (every listing filters on status).
  await db.schema
    .createIndex("hypotheses_owner_status_created_idx")
    .on("hypotheses")
    .columns(["owner_account_id", "status", "created_at desc", "id desc"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("hypotheses").execute();
}
