/** The payment provider's references for the calls that carried out each posting. */
import type { Kysely, Transaction } from "kysely";
import type { ExecutedProviderCall } from "../domain/ledger/payment-provider.js";
import type { LedgerTables } from "./schema.js";

/** Keeps the provider's references for the calls that carried out a posting (a replay keeps the first). */
export async function recordProviderCalls<DB extends LedgerTables>(
  transaction: Transaction<DB>,
  postingId: string,
  provider: string,
  calls: readonly ExecutedProviderCall[],
  now: Date,
): Promise<void> {
  if (calls.length === 0) return;
  const trx = transaction as unknown as Transaction<LedgerTables>;
  await trx
    .insertInto("ledger_provider_calls")
    .values(
      calls.map(({ call, receipt }) => ({
        posting_id: postingId,
        idempotency_key: call.request.idempotencyKey,
        method: call.method,
        provider,
        provider_reference: receipt.providerId,
        amount_cents: call.request.amountCents,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(["posting_id", "idempotency_key"]).doNothing())
    .execute();
}

export interface ProviderCallRow {
  postingId: string;
  method: string;
  providerReference: string;
  amountCents: number;
}

/** The provider calls recorded for an experiment's postings. */
export async function providerCallsOf<DB extends LedgerTables>(
  database: Kysely<DB>,
  experimentId: string,
): Promise<ProviderCallRow[]> {
  const db = database as unknown as Kysely<LedgerTables>;
  const rows = await db
    .selectFrom("ledger_provider_calls as c")
    .innerJoin("ledger_postings as p", "p.id", "c.posting_id")
    .select(["c.posting_id", "c.method", "c.provider_reference", "c.amount_cents"])
    .where("p.experiment_id", "=", experimentId)
    .orderBy("p.seq")
    .orderBy("c.idempotency_key")
    .execute();
  return rows.map((row) => ({
    postingId: row.posting_id,
    method: row.method,
    providerReference: row.provider_reference,
    amountCents: row.amount_cents,
  }));
}
