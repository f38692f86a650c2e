import type { Migration } from "kysely";
import * as createMessagingTables from "./2026_11_21_1000_create_messaging_tables.js";
import * as createSubmissions from "./2026_12_17_1000_create_submissions.js";
import * as deadLetterReplays from "./2027_02_01_1000_dead_letter_replays.js";
import * as experimentViews from "./2027_03_01_1000_experiment_views.js";
import * as experimentViewTitles from "./2027_03_01_1100_experiment_view_titles.js";

/** Every migration of the cloudlabs schema, by name (names sort in order). */
export const cloudLabsMigrations: Record<string, Migration> = {
  "2026_11_21_1000_create_messaging_tables": createMessagingTables,
  "2026_12_17_1000_create_submissions": createSubmissions,
  "2027_02_01_1000_dead_letter_replays": deadLetterReplays,
  "2027_03_01_1000_experiment_views": experimentViews,
  "2027_03_01_1100_experiment_view_titles": experimentViewTitles,
};
