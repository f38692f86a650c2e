import type { Kysely } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  // An experiment's latest dispute, which the experiment view reads for every assigned
  // experiment: without this index the read scans every dispute.
  await db.schema
    .createIndex("disputes_experiment_latest_idx")
    .on("disputes")
    .columns(["experiment_id", "created_at desc", "id desc"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("disputes_experiment_latest_idx").execute();
}
