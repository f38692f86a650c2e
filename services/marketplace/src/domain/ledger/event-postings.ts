/**
 * Business events -> postings (pure). Each function reads the current ledger and returns the
 * postings to record; recording them through applyPosting / recordPosting is idempotent, so
 * handling the same event twice moves nothing the second time (D25).
 */
import { LedgerError, assertCents } from "./errors.js";
import {
  type DisputeSplit,
  type Posting,
  compensationPosting,
  disputeResolutionPosting,
  holdAdjustmentPosting,
  holdAdjustmentVersion,
  holdPosting,
  postingKey,
  refundPosting,
  releasePosting,
} from "./postings.js";
import { type ExperimentLedger, type LedgerSummary, postingOf, summarize } from "./experiment-ledger.js";

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
