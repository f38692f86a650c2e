import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
const STATUSES = ["pending", "submitted", "queued", "running", "completed", "failed", "cancelled"];

export async function up(db: Kysely<any>): Promise<void> {
  const statusList = sql.join(STATUSES.map((status) => sql.lit(status)));
  // Submissions of translated experiments to cloud labs; also the worker's queue (send the
  // pending ones, poll the active ones) with leases, as engine runs do.
  await db.schema
    .createTable("submissions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_account_id", "text", (c) => c.notNull())
    .addColumn("experiment_id", "text", (c) => c.notNull())
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("adapter", "text", (c) => c.notNull())
    .addColumn("provider_submission_id", "text")
    .addColumn("protocol_format", "text", (c) => c.notNull())
    .addColumn("translated_protocol", "jsonb", (c) => c.notNull())
    // The lab plan the protocol was made from (what a simulated lab derives its results from).
    .addColumn("plan", "jsonb", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in (${statusList})`))
    .addColumn("results", "jsonb")
    .addColumn("error", "text")
    .addColumn("estimated_cost_cents", "bigint", (c) => c.notNull())
    .addColumn("turnaround_min_days", "integer", (c) => c.notNull())
    .addColumn("turnaround_max_days", "integer", (c) => c.notNull())
    .addColumn("cancel_requested", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("send_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_check_at", "timestamptz", (c) => c.notNull())
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", "timestamptz")
    .addColumn("version", "bigint", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("submitted_at", "timestamptz")
    .addColumn("started_at", "timestamptz")
    .addColumn("completed_at", "timestamptz")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("submissions_owner_created_idx")
    .on("submissions")
    .columns(["owner_account_id", "created_at desc", "id desc"])
    .execute();
  // The worker's scan: non-final submissions by when they are next due.
  await db.schema
    .createIndex("submissions_due_idx")
    .on("submissions")
    .columns(["next_check_at"])
    .where(sql.ref("status"), "in", ["pending", "submitted", "queued", "running"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("submissions").execute();
}
