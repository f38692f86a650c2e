import type { Kysely } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  // A hypothesis saved from a submitted experiment names it.
  await db.schema.alterTable("hypotheses").addColumn("source_experiment_id", "text").execute();
  // Each experiment created from a hypothesis, once: experiments_count counts these rows, so
  // recording one twice (the gateway's call and the ExperimentSubmitted event) counts it once.
  await db.schema
    .createTable("hypothesis_experiments")
    .addColumn("hypothesis_id", "text", (c) => c.notNull().references("hypotheses.id").onDelete("cascade"))
    .addColumn("experiment_id", "text", (c) => c.notNull())
    .addColumn("linked_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("hypothesis_experiments_pk", ["hypothesis_id", "experiment_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("hypothesis_experiments").execute();
  await db.schema.alterTable("hypotheses").dropColumn("source_experiment_id").execute();
}
