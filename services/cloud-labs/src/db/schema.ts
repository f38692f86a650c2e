import type { MessagingTables } from "@petri/db";

/** Tables of the cloudlabs schema; the capability's own tables arrive with its issue. */
export type CloudLabsDb = MessagingTables;
