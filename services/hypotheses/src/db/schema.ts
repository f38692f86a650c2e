import type { MessagingTables } from "@petri/db";

/** Tables of the hypotheses schema; the capability's own tables arrive with its issue. */
export type HypothesesDb = MessagingTables;
