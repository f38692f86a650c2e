import type { MessagingTables } from "@petri/db";

/** Tables of the experiments schema; the capability's own tables arrive with its issue. */
export type ExperimentsDb = MessagingTables;
