/**
 * Why the ledger refused a posting: a programming error, a state error, or (`no_hold`,
 * `release_pending`, `amount_mismatch`) an event that arrived before the one it depends on.
 * A consumer lets the event be retried and finally dead-lettered; no money moves meanwhile.
 */
export type LedgerErrorCode =
  | "invalid_amount"
  | "unbalanced_posting"
  | "invalid_posting"
  | "no_hold"
  | "duplicate_kind"
  | "escrow_overdrawn"
  | "invalid_split"
  | "not_cancellable"
  | "conflicting_replay"
  | "amount_mismatch"
  | "release_pending";

export class LedgerError extends Error {
  constructor(
    readonly code: LedgerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "LedgerError";
  }
}

/** An integer number of cents that JavaScript represents exactly (and PostgreSQL bigint holds). */
export function assertCents(value: number, what: string, { positive = false } = {}): void {
  if (!Number.isSafeInteger(value) || value < 0 || (positive && value === 0)) {
    throw new LedgerError(
      "invalid_amount",
      `${what} must be a ${positive ? "positive" : "non-negative"} integer number of cents, got ${value}`,
    );
  }
}
