import type { Migration } from "kysely";
import * as createMessagingTables from "./2026_11_21_1000_create_messaging_tables.js";
import * as createEngineRuns from "./2026_12_16_1100_create_engine_runs.js";
import * as deadLetterReplays from "./2027_02_01_1000_dead_letter_replays.js";

/** Every migration of the engine schema, by name (names sort in order). */
export const engineMigrations: Record<string, Migration> = {
  "2026_11_21_1000_create_messaging_tables": createMessagingTables,
  "2026_12_16_1100_create_engine_runs": createEngineRuns,
  "2027_02_01_1000_dead_letter_replays": deadLetterReplays,
};
