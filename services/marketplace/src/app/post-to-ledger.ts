/**
 * Recording the postings of one business event, inside the consumer's transaction (with the
 * inbox row of the event): each new posting is carried out through the payment-provider port,
 * its provider references are kept, and PaymentUpdated (the experiment's escrow summary after
 * that posting, and the posting's kind) is recorded. A replayed posting records nothing, calls
 * nothing and announces nothing.
 *
 * The provider is called before the transaction commits: should the commit fail, the event is
 * redelivered and the call repeated with the same idempotency key, which the provider answers
 * with its first receipt (the sandbox does; a production adapter must).
 */
import { events } from "@petri/contracts";
import { recordEvent } from "@petri/events";
import type { Transaction } from "kysely";
import { recordPosting } from "../db/ledger-repository.js";
import { recordProviderCalls } from "../db/provider-calls.js";
import type { MarketplaceDb } from "../db/schema.js";
import {
  type ExperimentLedger,
  applyPosting,
  paymentStateOf,
  paymentStatusOf,
  summarize,
} from "../domain/ledger/experiment-ledger.js";
import { type PaymentProvider, executeProviderCalls } from "../domain/ledger/payment-provider.js";
import type { Posting } from "../domain/ledger/postings.js";
import { paymentMessage } from "../contract/payment-message.js";

export interface LedgerDeps {
  provider: PaymentProvider;
  clock: { now(): Date };
}

/** Records `postings` (computed from `ledger`, read under lock) and returns the ledger after them. */
export async function postToLedger(
  trx: Transaction<MarketplaceDb>,
  deps: LedgerDeps,
  ledger: ExperimentLedger,
  postings: readonly Posting[],
): Promise<ExperimentLedger> {
  const now = deps.clock.now();
  let current = ledger;
  for (const posting of postings) {
    const result = await recordPosting(trx, posting, { now });
    if (result.recorded) current = await carryOutPosting(trx, deps, current, posting, result.postingId);
  }
  return current;
}

/**
 * A posting just recorded (id `postingId`) on `ledger`: the provider carries it out, its
 * references are kept and PaymentUpdated is recorded. Returns the ledger after it.
 */
export async function carryOutPosting(
  trx: Transaction<MarketplaceDb>,
  deps: LedgerDeps,
  ledger: ExperimentLedger,
  posting: Posting,
  postingId: string,
): Promise<ExperimentLedger> {
  const now = deps.clock.now();
  const current = applyPosting(ledger, posting).ledger;
  const calls = await executeProviderCalls(deps.provider, posting);
  await recordProviderCalls(trx, postingId, deps.provider.name, calls, now);
  const payment = paymentMessage(
    current.experimentId,
    summarize(current.experimentId, current.postings),
    paymentStatusOf(paymentStateOf(current), false),
    current.postings.length,
  );
  await recordEvent(
    trx,
    events.marketplace.paymentUpdated,
    { payment, kind: posting.kind },
    { aggregateId: current.experimentId, aggregateVersion: current.postings.length, occurredAt: now },
  );
  return current;
}
