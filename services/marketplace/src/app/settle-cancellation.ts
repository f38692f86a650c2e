import type { Transaction } from "kysely";
import { lockLedger } from "../db/ledger-repository.js";
import type { MarketplaceDb } from "../db/schema.js";
import { postingsForCancellationAmounts } from "../domain/ledger/event-postings.js";
import { type LedgerDeps, postToLedger } from "./post-to-ledger.js";

/**
 * A cancellation moves what its event announces: the refund to the requester and the
 * operator's compensation, which must add up to the held amount (else `amount_mismatch`: the
 * event is retried, in case a re-estimate is still on its way, and then dead-lettered, and no
 * money moves).
 */
export async function settleCancellation(
  trx: Transaction<MarketplaceDb>,
  deps: LedgerDeps,
  input: { experimentId: string; refundCents: number; compensationCents: number; operatorId: string },
): Promise<void> {
  const ledger = await lockLedger(trx, input.experimentId);
  const settlement = postingsForCancellationAmounts(
    ledger,
    { refundCents: input.refundCents, compensationCents: input.compensationCents },
    input.operatorId === "" ? undefined : input.operatorId,
  );
  await postToLedger(trx, deps, ledger, settlement.postings);
}
