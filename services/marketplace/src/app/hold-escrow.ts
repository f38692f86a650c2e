import type { Transaction } from "kysely";
import { recordHold } from "../db/ledger-repository.js";
import { saveHoldTarget } from "../db/hold-targets.js";
import type { MarketplaceDb } from "../db/schema.js";
import { type ExperimentLedger } from "../domain/ledger/experiment-ledger.js";
import { postingsForOpened } from "../domain/ledger/event-postings.js";
import { type LedgerDeps, carryOutPosting } from "./post-to-ledger.js";

/**
 * A request was submitted (open or pending_review) with `holdCents` to hold: requester funds
 * move to its escrow (authorised at the provider), and the hold target is set at the
 * submission's version, so later re-estimates adjust from it. Nothing is held for 0, but the
 * target is still set, so a later re-estimate can hold.
 *
 * The hold and its target are one statement, and the ledger is not read first: every other
 * posting needs the hold (recordPosting refuses it before one), so a hold that gets recorded
 * finds the experiment's ledger empty, and one already stored (a replay) is recorded as
 * nothing, whatever the ledger holds. The hold's unique key is the lock: a concurrent replay
 * waits on the insert.
 */
export async function holdEscrow(
  trx: Transaction<MarketplaceDb>,
  deps: LedgerDeps,
  input: { experimentId: string; holdCents: number; version: number },
): Promise<void> {
  const now = deps.clock.now();
  const target = { targetCents: input.holdCents, version: input.version };
  const [hold] = postingsForOpened(input.experimentId, input.holdCents);
  if (!hold) {
    await saveHoldTarget(trx, input.experimentId, target, now);
    return;
  }
  const recorded = await recordHold(trx, hold, target, { now });
  if (!recorded.recorded) return;
  const beforeTheHold: ExperimentLedger = { experimentId: input.experimentId, postings: [] };
  await carryOutPosting(trx, deps, beforeTheHold, hold, recorded.postingId);
}
