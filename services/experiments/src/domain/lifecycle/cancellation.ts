/**
 * What a cancellation does with the amount held for an experiment (integer cents).
 *
 * - draft: nothing is held (a draft is not submitted), so nothing is refunded: refund 0,
 *   compensation 0, refund_status "none".
 * - pending_review, open: full refund (no operator has done anything).
 * - claimed: partial refund; CLAIMED_OPERATOR_COMPENSATION_BPS of the hold (20 %) compensates
 *   the operator who reserved capacity and bought materials, the rest (80 %) is refunded.
 * - in_progress: no refund; the whole hold compensates the operator, whose work has started.
 * - pending_approval, completed, disputed, resolved, cancelled: not cancellable (409).
 *
 * refund + compensation always equals the hold for a submitted experiment, so the escrow
 * ledger balances to the cent.
 */
import type { ExperimentStatusName } from "@petri/contracts/vocabulary";
import { assertCan } from "./transitions.js";

/** The operator's share of the hold when a claimed experiment is cancelled: 20 % (basis points). */
export const CLAIMED_OPERATOR_COMPENSATION_BPS = 2_000;
const BPS = 10_000;

export type RefundStatus = "full" | "partial" | "none";

export interface CancellationSettlement {
  refundCents: number;
  operatorCompensationCents: number;
  refundStatus: RefundStatus;
}

/** The operator's share of a hold in cents, rounded half up to the cent. */
export function claimedCompensationCents(holdCents: number): number {
  return Math.floor((holdCents * CLAIMED_OPERATOR_COMPENSATION_BPS + BPS / 2) / BPS);
}

/**
 * The settlement of cancelling an experiment in `status` that holds `holdCents`. Throws
 * InvalidStateError (409 invalid_state, details.status and allowed_from) when the status
 * cannot be cancelled.
 */
export function cancellationSettlement(
  status: ExperimentStatusName,
  holdCents: number,
): CancellationSettlement {
  assertCan("cancel", status);
  if (!Number.isSafeInteger(holdCents) || holdCents < 0)
    throw new RangeError(`a hold must be a whole number of cents >= 0, got ${holdCents}`);
  switch (status) {
    case "draft":
      return { refundCents: 0, operatorCompensationCents: 0, refundStatus: "none" };
    case "pending_review":
    case "open":
      return { refundCents: holdCents, operatorCompensationCents: 0, refundStatus: "full" };
    case "claimed": {
      const compensation = claimedCompensationCents(holdCents);
      return {
        refundCents: holdCents - compensation,
        operatorCompensationCents: compensation,
        refundStatus: "partial",
      };
    }
    case "in_progress":
      return { refundCents: 0, operatorCompensationCents: holdCents, refundStatus: "none" };
    default:
      // assertCan has refused every other status.
      throw new Error(`unreachable: cancel from ${status}`);
  }
}
