import type { Migration } from "kysely";
import * as createMessagingTables from "./2026_11_21_1000_create_messaging_tables.js";
import * as createLedgerTables from "./2026_12_08_1000_create_ledger_tables.js";
import * as createOperators from "./2026_12_12_1000_create_operators.js";
import * as createJobs from "./2026_12_12_1100_create_jobs.js";
import * as addHoldAdjustments from "./2026_12_12_1200_add_hold_adjustments.js";
import * as createProviderCalls from "./2026_12_12_1300_create_provider_calls.js";
import * as deadLetterReplays from "./2027_02_01_1000_dead_letter_replays.js";

/** Every migration of the marketplace schema, by name (names sort in order). */
export const marketplaceMigrations: Record<string, Migration> = {
  "2026_11_21_1000_create_messaging_tables": createMessagingTables,
  "2026_12_08_1000_create_ledger_tables": createLedgerTables,
  "2026_12_12_1000_create_operators": createOperators,
  "2026_12_12_1100_create_jobs": createJobs,
  "2026_12_12_1200_add_hold_adjustments": addHoldAdjustments,
  "2026_12_12_1300_create_provider_calls": createProviderCalls,
  "2027_02_01_1000_dead_letter_replays": deadLetterReplays,
};
