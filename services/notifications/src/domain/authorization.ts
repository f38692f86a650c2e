/**
 * Who may do what with webhooks. Checked where the data is (docs/architecture.md section 6):
 *
 * - account: any account acting for itself (requester, operator, staff); never the gateway's
 *   "system" principal, which acts for no account.
 * - staff: staff accounts only (the sent-mail log, other accounts' delivery logs).
 * - A delivery is visible to the account it is for and to staff; to anyone else it does not
 *   exist (404 not_found, never 403). Acting on it (replay) is for its account only.
 */
import {
  ForbiddenError,
  NotFoundError,
  type Principal,
  type AccountAudience,
  authorizeAccount,
  isStaff,
} from "@petri/service-kit";

export type Audience = AccountAudience;
export const authorize = authorizeAccount;
export { isStaff };

/** Throws NotFound unless the principal may read the delivery. */
export function assertCanRead(principal: Principal, delivery: { id: string; account_id: string }): void {
  if (!isStaff(principal) && principal.accountId !== delivery.account_id)
    throw new NotFoundError("webhook delivery", delivery.id);
}

/** Throws NotFound (cannot see it) or Forbidden (staff) unless the delivery is the principal's. */
export function assertOwns(principal: Principal, delivery: { id: string; account_id: string }): void {
  assertCanRead(principal, delivery);
  if (principal.accountId !== delivery.account_id)
    throw new ForbiddenError("only the account a delivery is for can do this");
}

/** Whose deliveries a list shows: the caller's, or (staff only) the named account's. */
export function listedAccount(principal: Principal, requested: string): string {
  if (requested === "" || requested === principal.accountId) return principal.accountId;
  if (!isStaff(principal)) throw new ForbiddenError("only staff can read another account's deliveries");
  return requested;
}
