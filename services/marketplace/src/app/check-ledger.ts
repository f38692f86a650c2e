import type { Kysely } from "kysely";
import { type ConservationReport, conservation } from "../db/ledger-audit.js";
import type { MarketplaceDb } from "../db/schema.js";

/** Staff: the conservation check over every experiment's escrow (see ledger-repository conservation). */
export function makeCheckLedger(deps: { db: Kysely<MarketplaceDb> }) {
  return function checkLedger(): Promise<ConservationReport> {
    return conservation(deps.db);
  };
}
