import type { Kysely } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  // experiment_views is one read model shared with the hypotheses service (@petri/events):
  // it keeps the title and type too. Rows from before hold "" until their next event.
  await db.schema
    .alterTable("experiment_views")
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("experiment_type", "text", (c) => c.notNull().defaultTo(""))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("experiment_views").dropColumn("title").dropColumn("experiment_type").execute();
}
