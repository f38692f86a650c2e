import type { Kysely } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  // The library hypothesis an experiment was created from (POST /hypotheses/{id}/to-experiment).
  await db.schema.alterTable("experiments").addColumn("source_hypothesis_id", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("experiments").dropColumn("source_hypothesis_id").execute();
}
