import type { Migration } from "kysely";
import * as createMessagingTables from "./2026_11_21_1000_create_messaging_tables.js";
import * as createExperiments from "./2026_12_01_1000_create_experiments.js";
import * as marketplaceLoop from "./2026_12_10_1000_marketplace_loop.js";
import * as sourceHypothesis from "./2026_12_16_1000_source_hypothesis.js";
import * as disputesByExperiment from "./2026_12_20_1000_disputes_by_experiment.js";
import * as deadLetterReplays from "./2027_02_01_1000_dead_letter_replays.js";
import * as hypothesisViews from "./2027_03_10_1000_hypothesis_views.js";

/** Every migration of the experiments schema, by name (names sort in order). */
export const experimentsMigrations: Record<string, Migration> = {
  "2026_11_21_1000_create_messaging_tables": createMessagingTables,
  "2026_12_01_1000_create_experiments": createExperiments,
  "2026_12_10_1000_marketplace_loop": marketplaceLoop,
  "2026_12_16_1000_source_hypothesis": sourceHypothesis,
  "2026_12_20_1000_disputes_by_experiment": disputesByExperiment,
  "2027_02_01_1000_dead_letter_replays": deadLetterReplays,
  "2027_03_10_1000_hypothesis_views": hypothesisViews,
};
