import { createMessagingTables, dropMessagingTables } from "@petri/db";
import type { Kysely } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  await createMessagingTables(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropMessagingTables(db);
}
