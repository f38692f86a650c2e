import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
const STATUSES = ["onboarding", "pending_verification", "active", "rejected", "paused", "suspended"];

export async function up(db: Kysely<any>): Promise<void> {
  const statusList = sql.join(STATUSES.map((status) => sql.lit(status)));
  // One operator (lab) per account; the profile as declared and the staff verification record,
  // both validated by the domain before they are written.
  await db.schema
    .createTable("operators")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in (${statusList})`))
    .addColumn("profile", "jsonb", (c) => c.notNull())
    .addColumn("verification", "jsonb")
    .addColumn("status_reason", "text")
    .addColumn("lab_name", "text", (c) => c.notNull())
    // Computed from operator_job_outcomes on every outcome change.
    .addColumn("quality", "jsonb", (c) => c.notNull())
    // Bumped by every change of profile, verification or status (the eligibility event's version).
    .addColumn("version", "bigint", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
  // Staff listing, newest first, optionally by status.
  await db.schema
    .createIndex("operators_created_idx")
    .on("operators")
    .columns(["created_at desc", "id desc"])
    .execute();
  await db.schema
    .createIndex("operators_status_created_idx")
    .on("operators")
    .columns(["status", "created_at desc", "id desc"])
    .execute();

  // What each job taught about its operator, one row per (operator, experiment): every event
  // sets its own columns, so applying them in any order, or twice, gives the same row.
  await db.schema
    .createTable("operator_job_outcomes")
    .addColumn("operator_id", "text", (c) => c.notNull())
    .addColumn("experiment_id", "text", (c) => c.notNull())
    .addColumn("completed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("on_time", "boolean")
    .addColumn("rating", "integer", (c) => c.check(sql`rating between 1 and 5`))
    .addColumn("disputed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("dispute_outcome", "text", (c) =>
      c.check(sql`dispute_outcome in ('requester', 'operator', 'split')`),
    )
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("operator_job_outcomes_pkey", ["operator_id", "experiment_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("operator_job_outcomes").execute();
  await db.schema.dropTable("operators").execute();
}
