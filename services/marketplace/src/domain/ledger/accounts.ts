/**
 * Ledger accounts. Every amount is an integer number of US cents (docs/architecture.md §7).
 *
 * - `requester_funds`: the external source of requester money. It only ever gives (holds),
 *   so its balance is minus the total ever held.
 * - `escrow:<experiment_id>`: money held for one experiment; never negative.
 * - `operator_payable:<operator_id>`: what the platform owes an operator (releases,
 *   compensations, dispute shares); paying it out is the payment provider's job.
 * - `requester_refund`: money returned to requesters (full / partial refunds, dispute shares).
 *
 * There is no `platform_fee` account: neither docs/api.md nor D25 defines a fee, so the operator
 * receives the whole release. A fee would be one more leg of the release posting
 * (escrow -> platform_fee) and one more account; nothing else changes.
 */
export const REQUESTER_FUNDS = "requester_funds";
export const REQUESTER_REFUND = "requester_refund";

export type LedgerAccount = string;

export function escrowAccount(experimentId: string): LedgerAccount {
  assertIdPart(experimentId, "experiment id");
  return `escrow:${experimentId}`;
}

export function operatorPayableAccount(operatorId: string): LedgerAccount {
  assertIdPart(operatorId, "operator id");
  return `operator_payable:${operatorId}`;
}

export function isEscrowAccount(account: LedgerAccount): boolean {
  return account.startsWith("escrow:");
}

export function isOperatorPayableAccount(account: LedgerAccount): boolean {
  return account.startsWith("operator_payable:");
}

function assertIdPart(id: string, what: string): void {
  if (id.length === 0 || id.includes(":"))
    throw new RangeError(`invalid ${what} for a ledger account: "${id}"`);
}
