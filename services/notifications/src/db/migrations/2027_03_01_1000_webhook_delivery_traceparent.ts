import type { Kysely } from "kysely";

/** The trace of the event a delivery announces, so that its attempts join that trace. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("webhook_deliveries").addColumn("traceparent", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("webhook_deliveries").dropColumn("traceparent").execute();
}
