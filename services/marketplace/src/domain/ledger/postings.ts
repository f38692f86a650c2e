/**
 * Double-entry postings. A posting moves money between accounts in one step; its entries are
 * signed changes to account balances in integer cents: positive = debit (money arrives),
 * negative = credit (money leaves). A posting balances when its entries sum to zero.
 *
 * An experiment has at most ONE posting of each kind and key, so a replayed business event can
 * never move money twice (the database backs this with unique (experiment_id, kind, key)).
 * Every kind but hold_adjustment happens once per experiment and has the empty key; a hold
 * adjustment is keyed by the experiment version whose re-estimate it applies.
 *
 * | kind               | moves                                                        | when                         |
 * | ------------------ | ------------------------------------------------------------ | ---------------------------- |
 * | hold               | requester_funds -> escrow                                    | the request opens            |
 * | hold_adjustment    | requester_funds -> escrow (raise) or escrow -> requester_    | the hold is re-estimated     |
 * |                    | funds (lower: that part of the authorisation is let go)      | before any payout            |
 * | release            | escrow -> operator_payable                                   | the requester approves       |
 * | refund             | escrow -> requester_refund (full or partial)                 | cancellation                 |
 * | compensation       | escrow -> operator_payable                                   | cancellation once claimed    |
 * | dispute_resolution | escrow -> requester_refund and/or operator_payable (split);  | staff resolve a dispute      |
 * |                    | after a release: operator_payable -> requester_refund        |                              |
 */
import {
  REQUESTER_FUNDS,
  REQUESTER_REFUND,
  type LedgerAccount,
  escrowAccount,
  isEscrowAccount,
  operatorPayableAccount,
} from "./accounts.js";
import { LedgerError, assertCents } from "./errors.js";

export const POSTING_KINDS = [
  "hold",
  "hold_adjustment",
  "release",
  "refund",
  "compensation",
  "dispute_resolution",
] as const;
export type PostingKind = (typeof POSTING_KINDS)[number];

/** Kinds an experiment may have several of, told apart by their key. */
export const KEYED_POSTING_KINDS: ReadonlySet<PostingKind> = new Set(["hold_adjustment"]);

/** Kinds that move money between the requester's funds and escrow (nothing else may touch requester_funds). */
const FUNDING_KINDS: ReadonlySet<PostingKind> = new Set(["hold", "hold_adjustment"]);

export interface LedgerEntry {
  readonly account: LedgerAccount;
  /** Signed change of the account's balance in cents: > 0 debit, < 0 credit; never 0. */
  readonly amountCents: number;
}

export interface Posting {
  readonly experimentId: string;
  readonly kind: PostingKind;
  /** Tells apart several postings of a keyed kind (KEYED_POSTING_KINDS); absent or "" otherwise. */
  readonly key?: string;
  readonly entries: readonly LedgerEntry[];
}

/**
 * Whether the posting takes money from an account other than the requester's funds: only
 * such a posting can leave one of the experiment's balances negative (they are all at or
 * above zero before it).
 */
export function canOverdraw(posting: Pick<Posting, "entries">): boolean {
  return posting.entries.some((entry) => entry.account !== REQUESTER_FUNDS && entry.amountCents < 0);
}

/** The posting's key ("" for the once-only kinds). */
export function postingKey(posting: Pick<Posting, "key">): string {
  return posting.key ?? "";
}

export function isPostingKind(value: string): value is PostingKind {
  return (POSTING_KINDS as readonly string[]).includes(value);
}

/** Sum of the entries' signed amounts: 0 for a balanced posting. */
export function postingImbalance(entries: readonly LedgerEntry[]): number {
  return entries.reduce((sum, entry) => sum + entry.amountCents, 0);
}

/** The money a posting moves: the sum of its debits (= the sum of its credits when balanced). */
export function postingTotal(posting: Posting): number {
  return posting.entries.reduce((sum, entry) => sum + Math.max(entry.amountCents, 0), 0);
}

/**
 * Throws LedgerError unless the posting is well formed: a known kind, at least two entries,
 * one entry per account, every amount a non-zero safe integer, debits = credits, no other
 * experiment's escrow, and requester_funds only in a hold.
 */
export function assertValidPosting(posting: Posting): void {
  const where = `${posting.kind} posting of ${posting.experimentId}`;
  if (!isPostingKind(posting.kind))
    throw new LedgerError("invalid_posting", `unknown posting kind "${posting.kind}"`);
  if (posting.experimentId.length === 0)
    throw new LedgerError("invalid_posting", "posting without experiment id");
  if (KEYED_POSTING_KINDS.has(posting.kind) !== (postingKey(posting) !== ""))
    throw new LedgerError(
      "invalid_posting",
      KEYED_POSTING_KINDS.has(posting.kind) ? `${where} needs a key` : `${where} takes no key`,
    );
  if (posting.entries.length < 2)
    throw new LedgerError("invalid_posting", `${where} needs at least two entries`);
  const accounts = new Set<string>();
  for (const entry of posting.entries) {
    if (!Number.isSafeInteger(entry.amountCents) || entry.amountCents === 0) {
      throw new LedgerError(
        "invalid_amount",
        `${where}: ${entry.account} amount ${entry.amountCents} is not a non-zero integer`,
      );
    }
    if (accounts.has(entry.account))
      throw new LedgerError("invalid_posting", `${where}: ${entry.account} appears twice`);
    accounts.add(entry.account);
    if (isEscrowAccount(entry.account) && entry.account !== escrowAccount(posting.experimentId)) {
      throw new LedgerError(
        "invalid_posting",
        `${where} touches another experiment's escrow (${entry.account})`,
      );
    }
    if (entry.account === REQUESTER_FUNDS && !FUNDING_KINDS.has(posting.kind)) {
      throw new LedgerError(
        "invalid_posting",
        `${where}: only a hold or hold adjustment moves ${REQUESTER_FUNDS}`,
      );
    }
  }
  const imbalance = postingImbalance(posting.entries);
  if (imbalance !== 0)
    throw new LedgerError(
      "unbalanced_posting",
      `${where} does not balance (debits - credits = ${imbalance})`,
    );
}

/** The entries in a canonical order (by account), for comparing a replay with what is stored. */
export function canonicalEntries(entries: readonly LedgerEntry[]): LedgerEntry[] {
  return [...entries]
    .map((entry) => ({ account: entry.account, amountCents: entry.amountCents }))
    .sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
}

/** Same experiment, kind, key and entries (in any order). */
export function samePosting(a: Posting, b: Posting): boolean {
  if (
    a.experimentId !== b.experimentId ||
    a.kind !== b.kind ||
    postingKey(a) !== postingKey(b) ||
    a.entries.length !== b.entries.length
  )
    return false;
  const left = canonicalEntries(a.entries);
  const right = canonicalEntries(b.entries);
  return left.every(
    (entry, i) => entry.account === right[i]?.account && entry.amountCents === right[i]?.amountCents,
  );
}

function transferEntries(from: LedgerAccount, to: LedgerAccount, cents: number): LedgerEntry[] {
  return [
    { account: from, amountCents: -cents },
    { account: to, amountCents: cents },
  ];
}

function build(experimentId: string, kind: PostingKind, entries: LedgerEntry[], key?: string): Posting {
  const posting: Posting =
    key === undefined ? { experimentId, kind, entries } : { experimentId, kind, key, entries };
  assertValidPosting(posting);
  return posting;
}

/** requester_funds -> escrow. */
export function holdPosting(experimentId: string, amountCents: number): Posting {
  assertCents(amountCents, "hold", { positive: true });
  return build(
    experimentId,
    "hold",
    transferEntries(REQUESTER_FUNDS, escrowAccount(experimentId), amountCents),
  );
}

/** The key of the hold adjustment that applies the re-estimate of experiment version `version`. */
export function holdAdjustmentKey(version: number): string {
  if (!Number.isSafeInteger(version) || version < 1)
    throw new LedgerError("invalid_posting", `a hold adjustment needs a positive version, got ${version}`);
  return `v${version}`;
}

/** The experiment version a hold adjustment key names (undefined for any other key). */
export function holdAdjustmentVersion(key: string): number | undefined {
  const match = /^v([1-9][0-9]*)$/.exec(key);
  return match ? Number(match[1]) : undefined;
}

/**
 * The hold moves by `deltaCents` (signed, non-zero) to apply the re-estimate of experiment
 * version `version`: raised from the requester's funds, or lowered back to them.
 */
export function holdAdjustmentPosting(experimentId: string, version: number, deltaCents: number): Posting {
  if (deltaCents === 0) throw new LedgerError("invalid_amount", "a hold adjustment must move money");
  assertCents(Math.abs(deltaCents), "hold adjustment", { positive: true });
  const escrow = escrowAccount(experimentId);
  const entries =
    deltaCents > 0
      ? transferEntries(REQUESTER_FUNDS, escrow, deltaCents)
      : transferEntries(escrow, REQUESTER_FUNDS, -deltaCents);
  return build(experimentId, "hold_adjustment", entries, holdAdjustmentKey(version));
}

/** escrow -> operator_payable, on approval. */
export function releasePosting(experimentId: string, operatorId: string, amountCents: number): Posting {
  assertCents(amountCents, "release", { positive: true });
  return build(
    experimentId,
    "release",
    transferEntries(escrowAccount(experimentId), operatorPayableAccount(operatorId), amountCents),
  );
}

/** escrow -> requester_refund (full or partial). */
export function refundPosting(experimentId: string, amountCents: number): Posting {
  assertCents(amountCents, "refund", { positive: true });
  return build(
    experimentId,
    "refund",
    transferEntries(escrowAccount(experimentId), REQUESTER_REFUND, amountCents),
  );
}

/** escrow -> operator_payable, when a claimed or started job is cancelled. */
export function compensationPosting(experimentId: string, operatorId: string, amountCents: number): Posting {
  assertCents(amountCents, "compensation", { positive: true });
  return build(
    experimentId,
    "compensation",
    transferEntries(escrowAccount(experimentId), operatorPayableAccount(operatorId), amountCents),
  );
}

export interface DisputeSplit {
  requesterCents: number;
  operatorCents: number;
}

/**
 * A dispute's outcome as one posting. `source: "escrow"` (the usual case: the dispute was
 * opened before any release) splits the escrow between requester_refund and operator_payable.
 * `source: "operator_payable"` (a dispute of a completed experiment, after the release) moves
 * the requester's share back from operator_payable; the operator's share stays where it is.
 */
export function disputeResolutionPosting(
  experimentId: string,
  operatorId: string,
  split: DisputeSplit,
  source: "escrow" | "operator_payable",
): Posting {
  assertCents(split.requesterCents, "requester share");
  assertCents(split.operatorCents, "operator share");
  const operator = operatorPayableAccount(operatorId);
  if (source === "operator_payable") {
    assertCents(split.requesterCents, "requester share clawed back", { positive: true });
    return build(
      experimentId,
      "dispute_resolution",
      transferEntries(operator, REQUESTER_REFUND, split.requesterCents),
    );
  }
  const total = split.requesterCents + split.operatorCents;
  assertCents(total, "disputed amount", { positive: true });
  const entries: LedgerEntry[] = [{ account: escrowAccount(experimentId), amountCents: -total }];
  if (split.requesterCents > 0)
    entries.push({ account: REQUESTER_REFUND, amountCents: split.requesterCents });
  if (split.operatorCents > 0) entries.push({ account: operator, amountCents: split.operatorCents });
  return build(experimentId, "dispute_resolution", entries);
}
