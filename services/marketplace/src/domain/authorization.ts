/**
 * Who may call what. Checked where the data is (DESIGN.md section 6):
 *
 * - account: any account acting for itself (requester, operator, staff); never the gateway's
 *   "system" principal, which acts for no account.
 * - staff: staff accounts only (operator verification, the ledger check).
 * - Rows that depend on who asks (the caller's own operator, an experiment's requester) are
 *   checked by the use case; another tenant's experiment is 404, never 403.
 */
import { ForbiddenError, type Principal, UnauthenticatedError } from "@petri/service-kit";

export type Audience = "account" | "staff";

const ACCOUNT_ROLES: ReadonlySet<Principal["role"]> = new Set(["requester", "operator", "staff"]);

export function authorize(principal: Principal | undefined, audience: Audience): Principal {
  if (!principal) throw new UnauthenticatedError("authentication required");
  if (!ACCOUNT_ROLES.has(principal.role)) throw new ForbiddenError("this operation acts for an account");
  if (audience === "staff" && principal.role !== "staff")
    throw new ForbiddenError("this operation is for staff only");
  return principal;
}

export function isStaff(principal: Principal): boolean {
  return principal.role === "staff";
}

/** True when the principal may read what belongs to an experiment of `requesterAccountId`. */
export function canSeeExperiment(principal: Principal, requesterAccountId: string): boolean {
  return isStaff(principal) || principal.accountId === requesterAccountId;
}
