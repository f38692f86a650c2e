/**
 * One experiment's ledger as a pure value: the postings it holds, their balances and the
 * conservation invariant, and the payment state it shows; the postings each business event
 * produces are in event-postings.ts (D25).
 */
import {
  REQUESTER_FUNDS,
  REQUESTER_REFUND,
  type LedgerAccount,
  escrowAccount,
  isOperatorPayableAccount,
} from "./accounts.js";
import { LedgerError } from "./errors.js";
import {
  type Posting,
  type PostingKind,
  assertValidPosting,
  postingKey,
  postingTotal,
  samePosting,
} from "./postings.js";

export interface ExperimentLedger {
  readonly experimentId: string;
  readonly postings: readonly Posting[];
}

export function emptyLedger(experimentId: string): ExperimentLedger {
  return { experimentId, postings: [] };
}

/** Balance of every account the experiment's postings touch (cents, signed). */
export function accountBalances(postings: readonly Posting[]): Map<LedgerAccount, number> {
  const balances = new Map<LedgerAccount, number>();
  for (const posting of postings) {
    for (const entry of posting.entries) {
      balances.set(entry.account, (balances.get(entry.account) ?? 0) + entry.amountCents);
    }
  }
  return balances;
}

export interface LedgerSummary {
  /** Net amount drawn from the requester's funds: the hold plus its adjustments. */
  heldCents: number;
  /** Signed sum of the hold adjustments (0 when the hold was never re-estimated). */
  holdAdjustedCents: number;
  releasedCents: number;
  refundedCents: number;
  compensatedCents: number;
  /** Escrow split to the requester / operator by a dispute resolution. */
  disputeToRequesterCents: number;
  disputeToOperatorCents: number;
  /** Moved back from the operator to the requester by a dispute after the release. */
  clawedBackCents: number;
  /** Still in escrow. */
  stillHeldCents: number;
  /** requester_refund for this experiment: refund + dispute share + claw-back. */
  returnedToRequesterCents: number;
  /** operator_payable for this experiment: release + compensation + dispute share - claw-back. */
  paidToOperatorCents: number;
}

/** Totals per kind and per account side for one experiment's postings. */
export function summarize(experimentId: string, postings: readonly Posting[]): LedgerSummary {
  const escrow = escrowAccount(experimentId);
  const summary: LedgerSummary = {
    heldCents: 0,
    holdAdjustedCents: 0,
    releasedCents: 0,
    refundedCents: 0,
    compensatedCents: 0,
    disputeToRequesterCents: 0,
    disputeToOperatorCents: 0,
    clawedBackCents: 0,
    stillHeldCents: 0,
    returnedToRequesterCents: 0,
    paidToOperatorCents: 0,
  };
  for (const posting of postings) {
    const fromEscrow = posting.entries.some((entry) => entry.account === escrow && entry.amountCents < 0);
    for (const entry of posting.entries) {
      if (entry.account === REQUESTER_FUNDS) {
        summary.heldCents -= entry.amountCents;
        if (posting.kind === "hold_adjustment") summary.holdAdjustedCents -= entry.amountCents;
      }
      if (entry.account === escrow) summary.stillHeldCents += entry.amountCents;
      if (entry.account === REQUESTER_REFUND) summary.returnedToRequesterCents += entry.amountCents;
      if (isOperatorPayableAccount(entry.account)) summary.paidToOperatorCents += entry.amountCents;
      if (posting.kind === "dispute_resolution" && entry.amountCents > 0) {
        if (!fromEscrow) summary.clawedBackCents += entry.amountCents;
        else if (entry.account === REQUESTER_REFUND) summary.disputeToRequesterCents += entry.amountCents;
        else summary.disputeToOperatorCents += entry.amountCents;
      }
    }
    const total = postingTotal(posting);
    if (posting.kind === "release") summary.releasedCents += total;
    if (posting.kind === "refund") summary.refundedCents += total;
    if (posting.kind === "compensation") summary.compensatedCents += total;
  }
  return summary;
}

/**
 * The conservation invariant, on both views of the money:
 *   held = released + refunded + compensated + dispute shares + still held   (escrow flows)
 *   held = returned to requester + paid to operator + still held             (account balances)
 * and no balance of the experiment negative. Returns the violations (empty when it holds).
 */
export function conservationViolations(experimentId: string, postings: readonly Posting[]): string[] {
  const s = summarize(experimentId, postings);
  const violations: string[] = [];
  const out =
    s.releasedCents +
    s.refundedCents +
    s.compensatedCents +
    s.disputeToRequesterCents +
    s.disputeToOperatorCents;
  if (s.heldCents !== out + s.stillHeldCents) {
    violations.push(
      `${experimentId}: held ${s.heldCents} != escrow outflows ${out} + still held ${s.stillHeldCents}`,
    );
  }
  if (s.heldCents !== s.returnedToRequesterCents + s.paidToOperatorCents + s.stillHeldCents) {
    violations.push(
      `${experimentId}: held ${s.heldCents} != returned ${s.returnedToRequesterCents} + paid ${s.paidToOperatorCents} + still held ${s.stillHeldCents}`,
    );
  }
  for (const [account, balance] of accountBalances(postings)) {
    if (account !== REQUESTER_FUNDS && balance < 0)
      violations.push(`${experimentId}: ${account} is negative (${balance})`);
  }
  return violations;
}

export function postingOf(ledger: ExperimentLedger, kind: PostingKind, key = ""): Posting | undefined {
  return ledger.postings.find((posting) => posting.kind === kind && postingKey(posting) === key);
}

export interface ApplyResult {
  ledger: ExperimentLedger;
  /** False when the posting was an identical replay (nothing moved). */
  applied: boolean;
}

/**
 * Adds a posting, with the same rules the database repository enforces: valid and balanced,
 * this experiment's, one per kind and key (an identical replay is a no-op, a different one
 * `conflicting_replay`), a hold before anything else, and no balance driven negative.
 */
export function applyPosting(ledger: ExperimentLedger, posting: Posting): ApplyResult {
  assertValidPosting(posting);
  if (posting.experimentId !== ledger.experimentId) {
    throw new LedgerError(
      "invalid_posting",
      `posting of ${posting.experimentId} on the ledger of ${ledger.experimentId}`,
    );
  }
  const existing = postingOf(ledger, posting.kind, postingKey(posting));
  if (existing) {
    if (samePosting(existing, posting)) return { ledger, applied: false };
    throw new LedgerError(
      "conflicting_replay",
      `${ledger.experimentId} already has a different ${posting.kind} posting`,
    );
  }
  if (posting.kind !== "hold" && !postingOf(ledger, "hold")) {
    throw new LedgerError("no_hold", `${posting.kind} on ${ledger.experimentId} before any hold`);
  }
  const next: ExperimentLedger = {
    experimentId: ledger.experimentId,
    postings: [...ledger.postings, posting],
  };
  for (const [account, balance] of accountBalances(next.postings)) {
    if (account !== REQUESTER_FUNDS && balance < 0) {
      throw new LedgerError(
        "escrow_overdrawn",
        `${posting.kind} on ${ledger.experimentId} would leave ${account} at ${balance} cents`,
      );
    }
  }
  return { ledger: next, applied: true };
}

/** Applies postings in order (replays are no-ops). */
export function applyPostings(ledger: ExperimentLedger, postings: readonly Posting[]): ExperimentLedger {
  return postings.reduce((current, posting) => applyPosting(current, posting).ledger, ledger);
}

/** What the experiment record shows about its money. */
export type PaymentState =
  "none" | "held" | "released" | "refunded" | "partially_refunded" | "paid_to_operator" | "dispute_resolved";

export function paymentStateOf(ledger: ExperimentLedger): PaymentState {
  const s = summarize(ledger.experimentId, ledger.postings);
  if (s.heldCents === 0) return "none";
  if (postingOf(ledger, "dispute_resolution")) return "dispute_resolved";
  if (s.releasedCents > 0) return "released";
  if (s.refundedCents === s.heldCents) return "refunded";
  if (s.refundedCents > 0) return "partially_refunded";
  if (s.compensatedCents > 0) return "paid_to_operator";
  return "held";
}

/** Escrow status as the API and the PaymentUpdated event name it (petri.marketplace.v1.ExperimentPayment). */
export type PaymentStatus =
  "not_held" | "held" | "released" | "refunded" | "partially_refunded" | "disputed" | "resolved";

/**
 * The public status: the ledger's state, except that an open dispute (which moves no money
 * until it is resolved) shows as "disputed". Money paid wholly to the operator on a
 * cancellation in progress shows as "released", the status of money that went to the operator.
 */
export function paymentStatusOf(state: PaymentState, disputeOpen: boolean): PaymentStatus {
  if (state === "dispute_resolved") return "resolved";
  if (disputeOpen) return "disputed";
  switch (state) {
    case "none":
      return "not_held";
    case "paid_to_operator":
      return "released";
    default:
      return state;
  }
}
