import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
const STATUSES = ["PENDING", "RUNNING", "COMPLETED", "FAILED"];

export async function up(db: Kysely<any>): Promise<void> {
  const statusList = sql.join(STATUSES.map((status) => sql.lit(status)));
  // Engine runs; the table is also the work queue (leases instead of a broker: a run must
  // survive a restart, and its progress is read by the owner while it runs).
  await db.schema
    .createTable("engine_runs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_account_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in (${statusList})`))
    .addColumn("query", "text", (c) => c.notNull())
    .addColumn("context", "text", (c) => c.notNull())
    .addColumn("job_type", "text", (c) => c.notNull())
    .addColumn("experiment_type", "text")
    .addColumn("progress_stage", "text", (c) => c.notNull())
    .addColumn("progress_percentage", "integer", (c) => c.notNull())
    .addColumn("result", "jsonb")
    .addColumn("error", "text")
    .addColumn("error_code", "text")
    .addColumn("edited_hypothesis", "jsonb")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("started_at", "timestamptz")
    .addColumn("completed_at", "timestamptz")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
  // The owner's listing (newest first, optionally by status) and the active-run lookup.
  await db.schema
    .createIndex("engine_runs_owner_created_idx")
    .on("engine_runs")
    .columns(["owner_account_id", "created_at desc", "id desc"])
    .execute();
  // The worker's queue scan: PENDING oldest first, and RUNNING by lease expiry.
  await db.schema
    .createIndex("engine_runs_queue_idx")
    .on("engine_runs")
    .columns(["status", "created_at"])
    .where(sql.ref("status"), "in", ["PENDING", "RUNNING"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("engine_runs").execute();
}
