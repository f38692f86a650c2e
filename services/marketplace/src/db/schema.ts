import type { MessagingTables } from "@petri/db";

/** Tables of the marketplace schema; the capability's own tables arrive with its issue. */
export type MarketplaceDb = MessagingTables;
