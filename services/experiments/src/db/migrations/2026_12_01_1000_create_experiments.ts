import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
const STATUSES = [
  "draft",
  "pending_review",
  "open",
  "claimed",
  "in_progress",
  "pending_approval",
  "completed",
  "disputed",
  "resolved",
  "cancelled",
];

export async function up(db: Kysely<any>): Promise<void> {
  const statusList = sql.join(STATUSES.map((status) => sql.lit(status)));
  await db.schema
    .createTable("experiments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("requester_account_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in (${statusList})`))
    // Null only for drafts saved before these were given.
    .addColumn("experiment_type", "text")
    .addColumn("title", "text")
    // The normalised request (every default applied) and the request as sent (PATCHes merged in).
    .addColumn("request", "jsonb", (c) => c.notNull())
    .addColumn("raw_request", "jsonb", (c) => c.notNull())
    // The estimate, in cents and days; null only for a draft too incomplete to price.
    .addColumn("cost_low_cents", "bigint")
    .addColumn("cost_typical_cents", "bigint")
    .addColumn("cost_high_cents", "bigint")
    .addColumn("turnaround_standard_days", "integer")
    .addColumn("turnaround_expedited_days", "integer")
    .addColumn("turnaround_days", "integer")
    .addColumn("cost_breakdown", "jsonb")
    .addColumn("operator_availability", "text")
    // The amount held in escrow: the typical estimate at submission (0 for drafts).
    .addColumn("hold_cents", "bigint", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`hold_cents >= 0`),
    )
    .addColumn("review_reasons", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("safety_flags", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("review_note", "text")
    .addColumn("reviewed_by", "text")
    .addColumn("reviewed_at", "timestamptz")
    .addColumn("protocol_proposal", "jsonb")
    .addColumn("proposal_comments", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("operator_id", "text")
    .addColumn("operator_lab_name", "text")
    .addColumn("claimed_at", "timestamptz")
    .addColumn("deadline", "timestamptz")
    .addColumn("cancel_reason", "text")
    .addColumn("refund_cents", "bigint")
    .addColumn("operator_compensation_cents", "bigint")
    .addColumn("refund_status", "text", (c) => c.check(sql`refund_status in ('full', 'partial', 'none')`))
    .addColumn("cancelled_by", "text")
    .addColumn("cancelled_at", "timestamptz")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .addColumn("submitted_at", "timestamptz")
    .addCheckConstraint(
      "experiments_estimate_complete",
      sql`(cost_typical_cents is null) = (cost_low_cents is null)
          and (cost_typical_cents is null) = (cost_high_cents is null)`,
    )
    .addCheckConstraint(
      "experiments_cancellation_complete",
      sql`(status = 'cancelled') = (cancelled_at is not null)
          and (cancelled_at is null) = (refund_status is null)`,
    )
    .addCheckConstraint(
      "experiments_submitted_has_submitted_at",
      sql`(status = 'draft') or (submitted_at is not null) or (status = 'cancelled')`,
    )
    .execute();

  // A requester's listing: newest first, ties broken by id (the keyset of the cursor).
  await db.schema
    .createIndex("experiments_requester_created_idx")
    .on("experiments")
    .columns(["requester_account_id", "created_at desc", "id desc"])
    .execute();
  // Staff listings, all or by status.
  await db.schema
    .createIndex("experiments_created_idx")
    .on("experiments")
    .columns(["created_at desc", "id desc"])
    .execute();
  await db.schema
    .createIndex("experiments_status_created_idx")
    .on("experiments")
    .columns(["status", "created_at desc", "id desc"])
    .execute();
  // The staff review queue: oldest submission first.
  await db.schema
    .createIndex("experiments_review_queue_idx")
    .on("experiments")
    .columns(["submitted_at", "id"])
    .where(sql.ref("status"), "=", "pending_review")
    .execute();

  // Projection of the marketplace's verified operators, for operator_availability in
  // estimates. One row per (operator, experiment type it is verified for). Empty until the
  // marketplace publishes operator events (a later issue fills it through a consumer).
  await db.schema
    .createTable("operator_capacity")
    .addColumn("operator_id", "text", (c) => c.notNull())
    .addColumn("experiment_type", "text", (c) => c.notNull())
    .addColumn("max_bsl", "smallint", (c) => c.notNull().check(sql`max_bsl in (1, 2)`))
    .addColumn("human_samples_approved", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("current_capacity", "text", (c) =>
      c.notNull().check(sql`current_capacity in ('high', 'medium', 'low', 'none')`),
    )
    .addColumn("source_version", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("operator_capacity_pkey", ["operator_id", "experiment_type"])
    .execute();
  await db.schema
    .createIndex("operator_capacity_type_idx")
    .on("operator_capacity")
    .columns(["experiment_type", "max_bsl"])
    .execute();

  // Idempotency-key retention sweeps by completion time.
  await db.schema
    .createIndex("idempotency_keys_completed_idx")
    .on("idempotency_keys")
    .column("completed_at")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("idempotency_keys_completed_idx").ifExists().execute();
  await db.schema.dropTable("operator_capacity").execute();
  await db.schema.dropTable("experiments").execute();
}
