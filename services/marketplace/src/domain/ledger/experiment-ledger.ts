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
  holdAdjustmentPosting,
  holdAdjustmentVersion,
  holdPosting,
  postingKey,
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

// ---------------------------------------------------------------------------------------------
// Business events -> postings (pure). Each function reads the current ledger and returns the
// postings to record; recording them through applyPosting / recordPosting is idempotent, so
// handling the same event twice moves nothing the second time.

/** The request opens with `holdCents` held (its typical estimate, D25). A zero hold posts nothing. */
export function postingsForOpened(experimentId: string, holdCents: number): Posting[] {
  assertCents(holdCents, "hold");
  return holdCents === 0 ? [] : [holdPosting(experimentId, holdCents)];
}

export type HoldChangeOutcome =
  /** An adjustment moves the hold to the new target. */
  | "adjusted"
  /** The hold already equals the target. */
  | "unchanged"
  /** A re-estimate of this or a later version was applied already (a replay or a late event). */
  | "stale"
  /** Money has left escrow (release, refund, compensation, dispute): the hold no longer moves. */
  | "frozen";

export interface HoldChange {
  outcome: HoldChangeOutcome;
  postings: Posting[];
}

/**
 * The experiment was re-estimated at version `version` (a PATCH or an accepted protocol
 * proposal) and should now hold `targetCents`. `appliedVersion` is the newest version whose
 * hold target was applied before (the submission's, or an earlier re-estimate's), kept by the
 * caller even when a re-estimate moved nothing, so that an older re-estimate arriving late is
 * recognised as stale instead of moving the hold back.
 *
 * The adjustment is keyed by the version: a replay finds it recorded and moves nothing. A
 * request submitted with nothing to hold gets its first hold this way.
 */
export function postingsForHoldChange(
  ledger: ExperimentLedger,
  change: { targetCents: number; version: number },
  appliedVersion: number,
): HoldChange {
  assertCents(change.targetCents, "hold");
  if (!postingOf(ledger, "hold")) {
    if (change.version <= appliedVersion) return { outcome: "stale", postings: [] };
    return change.targetCents === 0
      ? { outcome: "unchanged", postings: [] }
      : { outcome: "adjusted", postings: [holdPosting(ledger.experimentId, change.targetCents)] };
  }
  const newestAdjustment = Math.max(
    0,
    ...ledger.postings
      .filter((posting) => posting.kind === "hold_adjustment")
      .map((posting) => holdAdjustmentVersion(postingKey(posting)) ?? 0),
  );
  if (change.version <= Math.max(appliedVersion, newestAdjustment)) return { outcome: "stale", postings: [] };
  if (ledger.postings.some((posting) => posting.kind !== "hold" && posting.kind !== "hold_adjustment"))
    return { outcome: "frozen", postings: [] };
  const delta = change.targetCents - summarize(ledger.experimentId, ledger.postings).heldCents;
  if (delta === 0) return { outcome: "unchanged", postings: [] };
  return {
    outcome: "adjusted",
    postings: [holdAdjustmentPosting(ledger.experimentId, change.version, delta)],
  };
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

/** What a cancellation gives back and pays out, as the experiments service announced it. */
export interface CancellationAmounts {
  refundCents: number;
  compensationCents: number;
}

/**
 * A cancellation with the amounts its event carries: `refundCents` back to the requester and
 * `compensationCents` to the operator. They must add up to what is held, with nothing paid out
 * yet; anything else is `amount_mismatch` (or `not_cancellable`), so wrong money never moves:
 * the event is retried (a hold adjustment may still be on its way) and then dead-lettered.
 * Zero amounts with nothing held move nothing; amounts with nothing held are `no_hold` (the
 * hold may arrive late). A replay yields the recorded postings again (no-ops when recorded).
 */
export function postingsForCancellationAmounts(
  ledger: ExperimentLedger,
  amounts: CancellationAmounts,
  operatorId?: string,
): CancellationPostings {
  assertCents(amounts.refundCents, "refund");
  assertCents(amounts.compensationCents, "operator compensation");
  const summary = summarize(ledger.experimentId, ledger.postings);
  const total = amounts.refundCents + amounts.compensationCents;
  if (!postingOf(ledger, "hold")) {
    if (total === 0) return { postings: [], refundCents: 0, compensationCents: 0, refundStatus: "none" };
    throw new LedgerError("no_hold", `cancellation of ${ledger.experimentId}: nothing is held yet`);
  }
  const replay = postingOf(ledger, "refund") !== undefined || postingOf(ledger, "compensation") !== undefined;
  if (!replay && summary.stillHeldCents !== summary.heldCents) {
    throw new LedgerError("not_cancellable", `${ledger.experimentId}: escrow was already paid out`);
  }
  if (total !== summary.heldCents) {
    throw new LedgerError(
      "amount_mismatch",
      `${ledger.experimentId}: refund ${amounts.refundCents} + compensation ${amounts.compensationCents} != held ${summary.heldCents} cents`,
    );
  }
  if (amounts.compensationCents > 0 && !operatorId) {
    throw new LedgerError("invalid_posting", `compensating on ${ledger.experimentId} needs the operator`);
  }
  const postings: Posting[] = [];
  if (amounts.refundCents > 0) postings.push(refundPosting(ledger.experimentId, amounts.refundCents));
  if (amounts.compensationCents > 0)
    postings.push(compensationPosting(ledger.experimentId, operatorId as string, amounts.compensationCents));
  return {
    postings,
    refundCents: amounts.refundCents,
    compensationCents: amounts.compensationCents,
    refundStatus:
      amounts.refundCents === total && total > 0 ? "full" : amounts.refundCents > 0 ? "partial" : "none",
  };
}

/**
 * Cancellation per D25, the rule the experiments service applies when it announces the
 * amounts: draft nothing; pending_review/open the whole hold back to the requester; claimed
 * 20 % of the hold to the operator and the rest back; in_progress the whole hold to the
 * operator. Refund + compensation = the hold. An experiment cancelled before its hold was
 * posted has nothing to refund. Computed from the hold, so a replayed cancellation yields the
 * same postings (which then record as no-ops).
 */
export function postingsForCancellation(
  ledger: ExperimentLedger,
  status: CancellableStatus,
  operatorId?: string,
): CancellationPostings {
  const summary = summarize(ledger.experimentId, ledger.postings);
  if (status === "draft") {
    if (summary.heldCents !== 0)
      throw new LedgerError("not_cancellable", `draft ${ledger.experimentId} holds money`);
    return { postings: [], refundCents: 0, compensationCents: 0, refundStatus: "none" };
  }
  if (!postingOf(ledger, "hold"))
    return postingsForCancellationAmounts(ledger, { refundCents: 0, compensationCents: 0 });
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
  return postingsForCancellationAmounts(
    ledger,
    { refundCents: hold - compensation, compensationCents: compensation },
    operatorId,
  );
}

export type DisputeOutcome =
  { outcome: "requester" } | { outcome: "operator" } | ({ outcome: "split" } & DisputeSplit);

/**
 * A resolved dispute. Before a release the escrow is split (for the requester: all back; for
 * the operator: all released; split: the amounts, which must add up to what escrow holds).
 * After a release (a dispute of a completed experiment) the disputed amount is the release:
 * the requester's share moves back from operator_payable; "for the operator" moves nothing.
 * `raisedAfterApproval` says the dispute was raised from completed, so a release must exist.
 */
export function postingsForDisputeResolution(
  ledger: ExperimentLedger,
  operatorId: string,
  resolution: DisputeOutcome,
  options: { raisedAfterApproval?: boolean } = {},
): Posting[] {
  const existing = postingOf(ledger, "dispute_resolution");
  if (existing) return [existing];
  const summary = held(ledger, "dispute resolution");
  // A dispute of a completed experiment resolves against the release; should the approval's
  // release not be recorded yet (events reordered), wait for it rather than split the escrow.
  if (options.raisedAfterApproval === true && !postingOf(ledger, "release"))
    throw new LedgerError(
      "release_pending",
      `${ledger.experimentId}: the approval's release is not recorded yet`,
    );
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
