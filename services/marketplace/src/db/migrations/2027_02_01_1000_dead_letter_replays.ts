import { addDeadLetterReplayColumns, dropDeadLetterReplayColumns } from "@petri/db";
import type { Kysely } from "kysely";

/** Staff replay of dead letters: who replayed one and when (GET/POST /admin/dead-letters). */
export async function up(db: Kysely<any>): Promise<void> {
  await addDeadLetterReplayColumns(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropDeadLetterReplayColumns(db);
}
