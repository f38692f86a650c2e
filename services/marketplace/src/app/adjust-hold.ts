import type { Transaction } from "kysely";
import { lockHoldTarget, saveHoldTarget } from "../db/hold-targets.js";
import { lockLedger } from "../db/ledger-repository.js";
import type { MarketplaceDb } from "../db/schema.js";
import { LedgerError } from "../domain/ledger/errors.js";
import { type HoldChangeOutcome, postingsForHoldChange } from "../domain/ledger/event-postings.js";
import { type LedgerDeps, postToLedger } from "./post-to-ledger.js";

/**
 * The experiment was re-estimated (a PATCH, an accepted protocol proposal) and should hold
 * `holdCents`. Before any money left escrow the hold moves by the difference, in a hold
 * adjustment keyed by the experiment version, so a replay moves nothing; a re-estimate older
 * than the one applied is ignored. Before the submission is recorded the event fails (no_hold)
 * and is retried until it is.
 */
export async function adjustHold(
  trx: Transaction<MarketplaceDb>,
  deps: LedgerDeps,
  input: { experimentId: string; holdCents: number; version: number },
): Promise<HoldChangeOutcome> {
  // The ledger's hold row first, then the target: the same order as holdEscrow.
  const ledger = await lockLedger(trx, input.experimentId);
  const target = await lockHoldTarget(trx, input.experimentId);
  if (!target)
    throw new LedgerError(
      "no_hold",
      `re-estimate of ${input.experimentId}: its submission is not recorded yet`,
    );
  const change = postingsForHoldChange(
    ledger,
    { targetCents: input.holdCents, version: input.version },
    target.version,
  );
  if (change.outcome === "stale") return change.outcome;
  await saveHoldTarget(
    trx,
    input.experimentId,
    { targetCents: input.holdCents, version: input.version },
    deps.clock.now(),
  );
  await postToLedger(trx, deps, ledger, change.postings);
  return change.outcome;
}
