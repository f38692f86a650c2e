import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  // The experiments service's experiments as the job feed needs them, from its events; a row
  // is replaced only by a newer aggregate version.
  await db.schema
    .createTable("jobs")
    .addColumn("experiment_id", "text", (c) => c.primaryKey())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("requester_account_id", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    // petri.experiments.v1.JobRequirements in snake_case.
    .addColumn("requirements", "jsonb", (c) => c.notNull())
    // The first time it was seen open (the earliest such event, whatever the arrival order).
    .addColumn("posted_at", "timestamptz")
    .addColumn("operator_id", "text")
    .addColumn("version", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
  // The feed's bounded candidate scan: the newest open jobs.
  await db.schema
    .createIndex("jobs_open_posted_idx")
    .on("jobs")
    .columns(["posted_at desc", "experiment_id desc"])
    .where(sql.ref("status"), "=", "open")
    .execute();
  // Active jobs per operator (the capacity filter).
  await db.schema
    .createIndex("jobs_operator_active_idx")
    .on("jobs")
    .column("operator_id")
    .where(sql.ref("status"), "in", ["claimed", "in_progress"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("jobs").execute();
}
