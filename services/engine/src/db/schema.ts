import type { MessagingTables } from "@petri/db";

/** Tables of the engine schema; the capability's own tables arrive with its issue. */
export type EngineDb = MessagingTables;
