import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.

/** Statuses in which an operator holds the experiment (it was claimed and not given back). */
const ASSIGNED = ["claimed", "in_progress", "pending_approval", "completed", "disputed", "resolved"];
/** Statuses before any claim. */
const UNASSIGNED = ["draft", "pending_review", "open"];
const PAYMENT_STATUSES = [
  "not_held",
  "held",
  "released",
  "refunded",
  "partially_refunded",
  "disputed",
  "resolved",
];
const DISPUTE_REASONS = [
  "results_incomplete",
  "results_incorrect",
  "protocol_not_followed",
  "documentation_insufficient",
  "other",
];
const literals = (values: readonly string[]) => sql.join(values.map((value) => sql.lit(value)));

export async function up(db: Kysely<any>): Promise<void> {
  // The experiments table gains the operator's assignment, the work and approval milestones,
  // the payment projection (marketplace ledger) and the derived job requirements.
  await db.schema
    .alterTable("experiments")
    .addColumn("operator_account_id", "text")
    .addColumn("estimated_start_date", "text", (c) =>
      c.check(sql`estimated_start_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`),
    )
    .addColumn("claim_notes", "text")
    .addColumn("started_at", "timestamptz")
    .addColumn("results_submitted_at", "timestamptz")
    .addColumn("completed_at", "timestamptz")
    .addColumn("approval_rating", "smallint", (c) => c.check(sql`approval_rating between 1 and 5`))
    .addColumn("approval_feedback", "text")
    .addColumn("approved_at", "timestamptz")
    .addColumn("payment_status", "text", (c) =>
      c
        .notNull()
        .defaultTo("not_held")
        .check(sql`payment_status in (${literals(PAYMENT_STATUSES)})`),
    )
    .addColumn("payment_held_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("payment_released_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("payment_refunded_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("payment_still_held_cents", "bigint", (c) => c.notNull().defaultTo(0))
    // The ledger's version (its number of postings): newer PaymentUpdated events only.
    .addColumn("payment_version", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("payment_updated_at", "timestamptz")
    // JobRequirements derived from the request when it is stored (null for rows stored before).
    .addColumn("job", "jsonb")
    .execute();

  // Backstops of the claim: an assigned status always names its operator and claim time, an
  // unassigned one never does; with the status-guarded claim UPDATE this leaves at most one
  // active claim per experiment, whatever a use case might do wrong.
  await db.schema
    .alterTable("experiments")
    .addCheckConstraint(
      "experiments_assignment_complete",
      sql`(status not in (${literals(ASSIGNED)}))
          or (operator_id is not null and operator_account_id is not null and claimed_at is not null
              and deadline is not null)`,
    )
    .execute();
  await db.schema
    .alterTable("experiments")
    .addCheckConstraint(
      "experiments_unassigned_before_claim",
      sql`(status not in (${literals(UNASSIGNED)})) or (operator_id is null and claimed_at is null)`,
    )
    .execute();
  await db.schema
    .alterTable("experiments")
    .addCheckConstraint(
      "experiments_results_after_submission",
      sql`(status not in ('pending_approval', 'completed', 'disputed', 'resolved'))
          or (results_submitted_at is not null)`,
    )
    .execute();
  await db.schema
    .alterTable("experiments")
    .addCheckConstraint(
      "experiments_completed_has_completed_at",
      sql`(status <> 'completed') or (completed_at is not null and approved_at is not null)`,
    )
    .execute();

  // An operator's active jobs (the capacity filter counts them on every claim).
  await db.schema
    .createIndex("experiments_operator_active_idx")
    .on("experiments")
    .column("operator_id")
    .where(sql.ref("status"), "in", ["claimed", "in_progress"])
    .execute();

  // Projection of the marketplace's OperatorEligibilityChanged events: what the claim check
  // and operator_availability need, one row per operator, newest version only.
  await db.schema
    .createTable("operator_eligibility")
    .addColumn("operator_id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().unique())
    .addColumn("lab_name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("experiment_types", "jsonb", (c) => c.notNull())
    .addColumn("max_bsl", "text", (c) => c.notNull())
    .addColumn("human_samples_approved", "boolean", (c) => c.notNull())
    .addColumn("animal_samples_approved", "boolean", (c) => c.notNull())
    .addColumn("hazardous_chemicals_approved", "boolean", (c) => c.notNull())
    .addColumn("equipment", "jsonb", (c) => c.notNull())
    .addColumn("equipment_verified", "boolean", (c) => c.notNull())
    .addColumn("max_concurrent_jobs", "integer", (c) => c.notNull())
    .addColumn("current_capacity", "text", (c) => c.notNull())
    .addColumn("timezone", "text", (c) => c.notNull())
    .addColumn("vacations", "jsonb", (c) => c.notNull())
    .addColumn("version", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("operator_eligibility_status_idx")
    .on("operator_eligibility")
    .column("status")
    .execute();

  await db.schema
    .createTable("experiment_issues")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("experiment_id", "text", (c) => c.notNull().references("experiments.id"))
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("severity", "text", (c) =>
      c.notNull().check(sql`severity in ('low', 'medium', 'high', 'critical')`),
    )
    .addColumn("reported_by", "text", (c) => c.notNull())
    .addColumn("reported_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("experiment_issues_experiment_idx")
    .on("experiment_issues")
    .columns(["experiment_id", "reported_at", "id"])
    .execute();

  // One results record per experiment (JSON without file bytes) and its stored files.
  await db.schema
    .createTable("experiment_results")
    .addColumn("experiment_id", "text", (c) => c.primaryKey().references("experiments.id"))
    .addColumn("results", "jsonb", (c) => c.notNull())
    .addColumn("submitted_by", "text", (c) => c.notNull())
    .addColumn("submitted_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("result_files")
    .addColumn("file_id", "text", (c) => c.primaryKey())
    .addColumn("experiment_id", "text", (c) => c.notNull().references("experiment_results.experiment_id"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('raw_data', 'photo', 'lab_notebook')`))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("format", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("size_bytes", "bigint", (c) => c.notNull().check(sql`size_bytes >= 0`))
    .addColumn("sha256", "text", (c) => c.notNull().check(sql`sha256 ~ '^[0-9a-f]{64}$'`))
    .addColumn("blob_key", "text", (c) => c.notNull().unique())
    // A photo's step: a number or a label, as sent (jsonb keeps which).
    .addColumn("step", "jsonb")
    .addColumn("caption", "text")
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("result_files_experiment_idx")
    .on("result_files")
    .columns(["experiment_id", "position"])
    .execute();

  await db.schema
    .createTable("disputes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("experiment_id", "text", (c) => c.notNull().references("experiments.id"))
    .addColumn("requester_account_id", "text", (c) => c.notNull())
    .addColumn("operator_id", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull().check(sql`reason in (${literals(DISPUTE_REASONS)})`))
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("evidence_urls", "jsonb", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('open', 'resolved')`))
    .addColumn("raised_from", "text", (c) =>
      c.notNull().check(sql`raised_from in ('pending_approval', 'completed')`),
    )
    .addColumn("outcome", "text", (c) => c.check(sql`outcome in ('requester', 'operator', 'split')`))
    .addColumn("requester_amount_cents", "bigint", (c) => c.check(sql`requester_amount_cents >= 0`))
    .addColumn("operator_amount_cents", "bigint", (c) => c.check(sql`operator_amount_cents >= 0`))
    .addColumn("resolution_note", "text")
    .addColumn("resolved_by", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("resolved_at", "timestamptz")
    .addCheckConstraint(
      "disputes_resolution_complete",
      sql`(status = 'resolved') = (resolved_at is not null)
          and (resolved_at is null) = (outcome is null)
          and (outcome is null) = (requester_amount_cents is null)
          and (outcome is null) = (operator_amount_cents is null)`,
    )
    .execute();
  // At most one open dispute per experiment, whatever a use case might do wrong.
  await db.schema
    .createIndex("disputes_one_open_per_experiment")
    .on("disputes")
    .column("experiment_id")
    .unique()
    .where(sql.ref("status"), "=", "open")
    .execute();
  // Staff listings, oldest first, all or by status.
  await db.schema.createIndex("disputes_created_idx").on("disputes").columns(["created_at", "id"]).execute();
  await db.schema
    .createIndex("disputes_status_created_idx")
    .on("disputes")
    .columns(["status", "created_at", "id"])
    .execute();

  // The HMAC key of signed file URLs, created on first use (INSERT ... ON CONFLICT DO NOTHING).
  await db.schema
    .createTable("file_url_keys")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .execute();

  // Replaced by operator_eligibility (nothing else reads it).
  await db.schema.dropTable("operator_capacity").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
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
  await db.schema.dropTable("file_url_keys").execute();
  await db.schema.dropTable("disputes").execute();
  await db.schema.dropTable("result_files").execute();
  await db.schema.dropTable("experiment_results").execute();
  await db.schema.dropTable("experiment_issues").execute();
  await db.schema.dropTable("operator_eligibility").execute();
  await db.schema.dropIndex("experiments_operator_active_idx").execute();
  for (const constraint of [
    "experiments_completed_has_completed_at",
    "experiments_results_after_submission",
    "experiments_unassigned_before_claim",
    "experiments_assignment_complete",
  ])
    await db.schema.alterTable("experiments").dropConstraint(constraint).execute();
  await db.schema
    .alterTable("experiments")
    .dropColumn("job")
    .dropColumn("payment_updated_at")
    .dropColumn("payment_version")
    .dropColumn("payment_still_held_cents")
    .dropColumn("payment_refunded_cents")
    .dropColumn("payment_released_cents")
    .dropColumn("payment_held_cents")
    .dropColumn("payment_status")
    .dropColumn("approved_at")
    .dropColumn("approval_feedback")
    .dropColumn("approval_rating")
    .dropColumn("completed_at")
    .dropColumn("results_submitted_at")
    .dropColumn("started_at")
    .dropColumn("claim_notes")
    .dropColumn("estimated_start_date")
    .dropColumn("operator_account_id")
    .execute();
}
