import type { Migration } from "kysely";
import * as createMessagingTables from "./2026_11_21_1000_create_messaging_tables.js";
import * as createHypotheses from "./2026_12_15_1000_create_hypotheses.js";
import * as experimentLinks from "./2026_12_16_1000_experiment_links.js";
import * as deadLetterReplays from "./2027_02_01_1000_dead_letter_replays.js";
import * as experimentViews from "./2027_03_01_1000_experiment_views.js";
import * as backfillHypothesisSaved from "./2027_03_10_1000_backfill_hypothesis_saved.js";

/** Every migration of the hypotheses schema, by name (names sort in order). */
export const hypothesesMigrations: Record<string, Migration> = {
  "2026_11_21_1000_create_messaging_tables": createMessagingTables,
  "2026_12_15_1000_create_hypotheses": createHypotheses,
  "2026_12_16_1000_experiment_links": experimentLinks,
  "2027_02_01_1000_dead_letter_replays": deadLetterReplays,
  "2027_03_01_1000_experiment_views": experimentViews,
  "2027_03_10_1000_backfill_hypothesis_saved": backfillHypothesisSaved,
};
