import type { Transaction } from "kysely";
import { DISPUTE_OUTCOMES } from "@petri/contracts/vocabulary";
import { lockLedger } from "../db/ledger-repository.js";
import type { MarketplaceDb } from "../db/schema.js";
import { LedgerError } from "../domain/ledger/errors.js";
import { type DisputeOutcome, postingsForDisputeResolution } from "../domain/ledger/event-postings.js";
import { type LedgerDeps, postToLedger } from "./post-to-ledger.js";

export interface ResolvedDispute {
  experimentId: string;
  operatorId: string;
  /** "requester", "operator" or "split". */
  outcome: string;
  requesterCents: number;
  operatorCents: number;
  /** "pending_approval" or "completed" (after the approval released the money). */
  raisedFrom: string;
}

/**
 * The staff's outcome as a ledger outcome. The amounts decide; the outcome must agree with
 * them (all to the requester, all to the operator, or a split). A resolution without amounts
 * for "requester" or "operator" means the whole disputed amount.
 */
export function disputeOutcomeOf(dispute: ResolvedDispute): DisputeOutcome {
  const { outcome, requesterCents, operatorCents } = dispute;
  const none = requesterCents === 0 && operatorCents === 0;
  const agrees =
    outcome === "split" ||
    none ||
    (outcome === "requester" && operatorCents === 0) ||
    (outcome === "operator" && requesterCents === 0);
  if (!(DISPUTE_OUTCOMES as readonly string[]).includes(outcome) || !agrees)
    throw new LedgerError(
      "invalid_split",
      `${dispute.experimentId}: outcome "${outcome}" with ${requesterCents} to the requester and ${operatorCents} to the operator`,
    );
  if (none && outcome !== "split") return { outcome: outcome as "requester" | "operator" };
  return { outcome: "split", requesterCents, operatorCents };
}

/**
 * Staff resolved a dispute: before a release the escrow is split as decided; after one (the
 * dispute was raised on a completed experiment) the requester's share is clawed back from the
 * operator. The shares must add up to the disputed amount (else `invalid_split`, and no money
 * moves).
 */
export async function settleDispute(
  trx: Transaction<MarketplaceDb>,
  deps: LedgerDeps,
  dispute: ResolvedDispute,
): Promise<void> {
  if (dispute.operatorId === "")
    throw new LedgerError("invalid_posting", `dispute of ${dispute.experimentId} names no operator`);
  const outcome = disputeOutcomeOf(dispute);
  const ledger = await lockLedger(trx, dispute.experimentId);
  const postings = postingsForDisputeResolution(ledger, dispute.operatorId, outcome, {
    raisedAfterApproval: dispute.raisedFrom === "completed",
  });
  await postToLedger(trx, deps, ledger, postings);
}
