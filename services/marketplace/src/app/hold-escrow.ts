import type { Transaction } from "kysely";
import { lockLedger, saveHoldTarget } from "../db/ledger-repository.js";
import type { MarketplaceDb } from "../db/schema.js";
import { postingsForOpened } from "../domain/ledger/experiment-ledger.js";
import { type LedgerDeps, postToLedger } from "./post-to-ledger.js";

/**
 * A request was submitted (open or pending_review) with `holdCents` to hold: requester funds
 * move to its escrow (authorised at the provider), and the hold target is set at the
 * submission's version, so later re-estimates adjust from it. Nothing is held for 0, but the
 * target is still set, so a later re-estimate can hold.
 */
export async function holdEscrow(
  trx: Transaction<MarketplaceDb>,
  deps: LedgerDeps,
  input: { experimentId: string; holdCents: number; version: number },
): Promise<void> {
  const ledger = await lockLedger(trx, input.experimentId);
  await postToLedger(trx, deps, ledger, postingsForOpened(input.experimentId, input.holdCents));
  await saveHoldTarget(
    trx,
    input.experimentId,
    { targetCents: input.holdCents, version: input.version },
    deps.clock.now(),
  );
}
