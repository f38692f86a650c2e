/** Checks on the ledger shared by its unit tests and the escrow and ledger integration tests. */
import { expect } from "vitest";
import type { ConservationReport } from "../../src/db/ledger-audit.js";
import { LedgerError } from "../../src/domain/ledger/errors.js";

/** The code of the LedgerError `fn` throws (a text saying so for another error), undefined when it throws none. */
export function ledgerErrorCode(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof LedgerError ? error.code : `not a LedgerError: ${String(error)}`;
  }
  return undefined;
}

type SettledCents<T> = Pick<
  Record<keyof ConservationReport, T>,
  | "heldCents"
  | "releasedCents"
  | "refundedCents"
  | "compensatedCents"
  | "disputeToRequesterCents"
  | "disputeToOperatorCents"
  | "stillHeldCents"
>;

/**
 * Every cent held is accounted for: released, refunded, compensated, split by a dispute, or
 * still held; in the conservation query's numbers or CheckLedger's bigints.
 */
export function expectHeldCentsAccountedFor(report: SettledCents<number>): void;
export function expectHeldCentsAccountedFor(report: SettledCents<bigint>): void;
export function expectHeldCentsAccountedFor(report: SettledCents<any>): void {
  expect(report.heldCents).toBe(
    report.releasedCents +
      report.refundedCents +
      report.compensatedCents +
      report.disputeToRequesterCents +
      report.disputeToOperatorCents +
      report.stillHeldCents,
  );
}
