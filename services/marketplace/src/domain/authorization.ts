/**
 * Who may call what. Checked where the data is (docs/architecture.md section 6):
 *
 * - account: any account acting for itself (requester, operator, staff); never the gateway's
 *   "system" principal, which acts for no account.
 * - staff: staff accounts only (operator verification, the ledger check).
 * - Rows that depend on who asks (the caller's own operator, an experiment's requester) are
 *   checked by the use case; another tenant's experiment is 404, never 403.
 */
import { type Principal, type AccountAudience, authorizeAccount, isStaff } from "@petri/service-kit";

export type Audience = AccountAudience;
export const authorize = authorizeAccount;
export { isStaff };

/** True when the principal may read what belongs to an experiment of `requesterAccountId`. */
export function canSeeExperiment(principal: Principal, requesterAccountId: string): boolean {
  return isStaff(principal) || principal.accountId === requesterAccountId;
}
