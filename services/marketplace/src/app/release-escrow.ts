import type { Transaction } from "kysely";
import { lockLedger } from "../db/ledger-repository.js";
import type { MarketplaceDb } from "../db/schema.js";
import { LedgerError } from "../domain/ledger/errors.js";
import { postingsForApproval } from "../domain/ledger/event-postings.js";
import { type LedgerDeps, postToLedger } from "./post-to-ledger.js";

/** The requester approved: what escrow still holds is released to the operator (paid out by the provider). */
export async function releaseEscrow(
  trx: Transaction<MarketplaceDb>,
  deps: LedgerDeps,
  input: { experimentId: string; operatorId: string },
): Promise<void> {
  if (input.operatorId === "")
    throw new LedgerError("invalid_posting", `approval of ${input.experimentId} names no operator`);
  const ledger = await lockLedger(trx, input.experimentId);
  await postToLedger(trx, deps, ledger, postingsForApproval(ledger, input.operatorId));
}
