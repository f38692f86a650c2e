/**
 * Who may call what. Checked where the data is (docs/architecture.md section 6):
 *
 * - account: any account acting for itself (requester, operator, staff) on its own library;
 *   never the gateway's "system" principal, which acts for no account.
 * - A hypothesis belongs to the account that saved it: another account's hypothesis is 404,
 *   never 403 (staff included: a library is private notes, not a marketplace object).
 */
import { type AccountAudience, type Principal, authorizeAccount } from "@petri/service-kit";

export type Audience = AccountAudience;
export const authorize = authorizeAccount;

export function ownsHypothesis(principal: Principal, hypothesis: { ownerAccountId: string }): boolean {
  return principal.accountId === hypothesis.ownerAccountId;
}
