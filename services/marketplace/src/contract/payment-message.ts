/** The escrow of one experiment as messages (GetExperimentPayment, PaymentUpdated). */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ExperimentPayment,
  ExperimentPaymentSchema,
  type Posting as PostingMessage,
  PostingSchema,
} from "@petri/contracts/marketplace";
import type { StoredPosting } from "../db/ledger-repository.js";
import type { LedgerSummary, PaymentStatus } from "../domain/ledger/experiment-ledger.js";

export function paymentMessage(
  experimentId: string,
  summary: LedgerSummary,
  status: PaymentStatus,
  postings: number,
): ExperimentPayment {
  return create(ExperimentPaymentSchema, {
    experimentId,
    status,
    heldCents: BigInt(summary.heldCents),
    releasedCents: BigInt(summary.releasedCents),
    refundedCents: BigInt(summary.refundedCents),
    compensatedCents: BigInt(summary.compensatedCents),
    stillHeldCents: BigInt(summary.stillHeldCents),
    returnedToRequesterCents: BigInt(summary.returnedToRequesterCents),
    paidToOperatorCents: BigInt(summary.paidToOperatorCents),
    version: BigInt(postings),
  });
}

export function postingMessage(stored: StoredPosting): PostingMessage {
  return create(PostingSchema, {
    kind: stored.posting.kind,
    entries: stored.posting.entries.map((entry) => ({
      account: entry.account,
      amountCents: BigInt(entry.amountCents),
    })),
    postedAt: timestampFromDate(stored.postedAt),
  });
}
