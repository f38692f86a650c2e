import type { Migration } from "kysely";
import * as createMessagingTables from "./2026_11_21_1000_create_messaging_tables.js";
import * as createLedgerTables from "./2026_12_08_1000_create_ledger_tables.js";

/** Every migration of the marketplace schema, by name (names sort in order). */
export const marketplaceMigrations: Record<string, Migration> = {
  "2026_11_21_1000_create_messaging_tables": createMessagingTables,
  "2026_12_08_1000_create_ledger_tables": createLedgerTables,
};
