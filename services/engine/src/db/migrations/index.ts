import type { Migration } from "kysely";
import * as createMessagingTables from "./2026_11_21_1000_create_messaging_tables.js";

/** Every migration of the engine schema, by name (names sort in order). */
export const engineMigrations: Record<string, Migration> = {
  "2026_11_21_1000_create_messaging_tables": createMessagingTables,
};
