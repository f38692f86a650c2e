/**
 * One experiment's ledger as a pure value: the postings it holds, their balances and the
 * conservation invariant, and the postings each business event produces (D25).
 */
import {
  REQUESTER_FUNDS,
  REQUESTER_REFUND,
  type LedgerAccount,
  escrowAccount,
  isOperatorPayableAccount,
} from "./accounts.js";
import { LedgerError, assertCents } from "./errors.js";
import {
  type DisputeSplit,
  type Posting,
  type PostingKind,
  assertValidPosting,
  compensationPosting,
  disputeResolutionPosting,
  holdPosting,
  postingTotal,
  refundPosting,
  releasePosting,
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
  heldCents: number;
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
    if (posting.kind === "hold") summary.heldCents += total;
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

export function postingOf(ledger: ExperimentLedger, kind: PostingKind): Posting | undefined {
  return ledger.postings.find((posting) => posting.kind === kind);
}

export interface ApplyResult {
  ledger: ExperimentLedger;
  /** False when the posting was an identical replay (nothing moved). */
  applied: boolean;
}

/**
 * Adds a posting, with the same rules the database repository enforces: valid and balanced,
 * this experiment's, one per kind (an identical replay is a no-op, a different one
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
  const existing = postingOf(ledger, posting.kind);
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

// ---------------------------------------------------------------------------------------------
// Business events -> postings (pure). Each function reads the current ledger and returns the
// postings to record; recording them through applyPosting / recordPosting is idempotent, so
// handling the same event twice moves nothing the second time.

/** The request opens with `holdCents` held (its typical estimate, D25). A zero hold posts nothing. */
export function postingsForOpened(experimentId: string, holdCents: number): Posting[] {
  assertCents(holdCents, "hold");
  return holdCents === 0 ? [] : [holdPosting(experimentId, holdCents)];
}

function held(ledger: ExperimentLedger, event: string): LedgerSummary {
  if (!postingOf(ledger, "hold"))
    throw new LedgerError("no_hold", `${event} of ${ledger.experimentId}: nothing is held`);
  return summarize(ledger.experimentId, ledger.postings);
}

/** Approval releases what escrow still holds to the operator (nothing when already released). */
export function postingsForApproval(ledger: ExperimentLedger, operatorId: string): Posting[] {
  const existing = postingOf(ledger, "release");
  if (existing) return [existing];
  const summary = held(ledger, "approval");
  return summary.stillHeldCents === 0
    ? []
    : [releasePosting(ledger.experimentId, operatorId, summary.stillHeldCents)];
}

/** Statuses an experiment can be cancelled from (D25); the others are 409 upstream. */
export type CancellableStatus = "draft" | "pending_review" | "open" | "claimed" | "in_progress";

/** The operator's share of a hold when a claimed experiment is cancelled: 20 % (D25). */
export const CLAIMED_OPERATOR_COMPENSATION_BPS = 2_000;
const BPS = 10_000;

/** 20 % of the hold, rounded half up to the cent (the same rule the experiments service applies). */
export function claimedCompensationCents(holdCents: number): number {
  return Math.floor((holdCents * CLAIMED_OPERATOR_COMPENSATION_BPS + BPS / 2) / BPS);
}

export interface CancellationPostings {
  postings: Posting[];
  refundCents: number;
  compensationCents: number;
  refundStatus: "full" | "partial" | "none";
}

/**
 * Cancellation per D25: draft nothing; pending_review/open the whole hold back to the
 * requester; claimed 20 % of the hold to the operator and the rest back; in_progress the whole
 * hold to the operator. Refund + compensation = the hold. An experiment cancelled before its
 * hold was posted has nothing to refund. Computed from the hold, so a replayed cancellation
 * yields the same postings (which then record as no-ops).
 */
export function postingsForCancellation(
  ledger: ExperimentLedger,
  status: CancellableStatus,
  operatorId?: string,
): CancellationPostings {
  const summary = summarize(ledger.experimentId, ledger.postings);
  const none: CancellationPostings = {
    postings: [],
    refundCents: 0,
    compensationCents: 0,
    refundStatus: "none",
  };
  if (status === "draft") {
    if (summary.heldCents !== 0)
      throw new LedgerError("not_cancellable", `draft ${ledger.experimentId} holds money`);
    return none;
  }
  if (summary.heldCents === 0) return none;
  const replay = postingOf(ledger, "refund") !== undefined || postingOf(ledger, "compensation") !== undefined;
  if (!replay && summary.stillHeldCents !== summary.heldCents) {
    throw new LedgerError("not_cancellable", `${ledger.experimentId}: escrow was already paid out`);
  }
  const hold = summary.heldCents;
  let compensation = 0;
  if (status === "claimed") compensation = claimedCompensationCents(hold);
  else if (status === "in_progress") compensation = hold;
  else if (status !== "pending_review" && status !== "open") {
    throw new LedgerError(
      "not_cancellable",
      `${ledger.experimentId} cannot be cancelled from ${String(status)}`,
    );
  }
  if (compensation > 0 && !operatorId) {
    throw new LedgerError(
      "invalid_posting",
      `cancelling ${status} ${ledger.experimentId} needs the operator`,
    );
  }
  const refund = hold - compensation;
  const postings: Posting[] = [];
  if (refund > 0) postings.push(refundPosting(ledger.experimentId, refund));
  if (compensation > 0)
    postings.push(compensationPosting(ledger.experimentId, operatorId as string, compensation));
  return {
    postings,
    refundCents: refund,
    compensationCents: compensation,
    refundStatus: refund === hold ? "full" : refund > 0 ? "partial" : "none",
  };
}

export type DisputeOutcome =
  { outcome: "requester" } | { outcome: "operator" } | ({ outcome: "split" } & DisputeSplit);

/**
 * A resolved dispute. Before a release the escrow is split (for the requester: all back; for
 * the operator: all released; split: the amounts, which must add up to what escrow holds).
 * After a release (a dispute of a completed experiment) the disputed amount is the release:
 * the requester's share moves back from operator_payable; "for the operator" moves nothing.
 */
export function postingsForDisputeResolution(
  ledger: ExperimentLedger,
  operatorId: string,
  resolution: DisputeOutcome,
): Posting[] {
  const existing = postingOf(ledger, "dispute_resolution");
  if (existing) return [existing];
  const summary = held(ledger, "dispute resolution");
  const fromEscrow = summary.stillHeldCents > 0;
  const disputed = fromEscrow ? summary.stillHeldCents : summary.releasedCents;
  if (disputed === 0) throw new LedgerError("no_hold", `${ledger.experimentId}: no money left to resolve`);
  const split: DisputeSplit =
    resolution.outcome === "requester"
      ? { requesterCents: disputed, operatorCents: 0 }
      : resolution.outcome === "operator"
        ? { requesterCents: 0, operatorCents: disputed }
        : { requesterCents: resolution.requesterCents, operatorCents: resolution.operatorCents };
  assertCents(split.requesterCents, "requester share");
  assertCents(split.operatorCents, "operator share");
  if (split.requesterCents + split.operatorCents !== disputed) {
    throw new LedgerError(
      "invalid_split",
      `${ledger.experimentId}: split ${split.requesterCents} + ${split.operatorCents} != disputed ${disputed} cents`,
    );
  }
  if (!fromEscrow && split.requesterCents === 0) return [];
  return [
    disputeResolutionPosting(
      ledger.experimentId,
      operatorId,
      split,
      fromEscrow ? "escrow" : "operator_payable",
    ),
  ];
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
