/** Why the ledger refused a posting. Every one is a programming or state error, never a retry. */
export type LedgerErrorCode =
  | "invalid_amount"
  | "unbalanced_posting"
  | "invalid_posting"
  | "no_hold"
  | "duplicate_kind"
  | "escrow_overdrawn"
  | "invalid_split"
  | "not_cancellable"
  | "conflicting_replay";

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
