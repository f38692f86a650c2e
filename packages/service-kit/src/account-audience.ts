/**
 * The two audiences most RPCs have (docs/architecture.md section 6, authorization where the data is):
 * - account: any account acting for itself (requester, operator, staff); never the gateway's
 *   "system" principal, which acts for no account;
 * - staff: staff accounts only.
 * Services add their own (public, signed links) around these.
 */
import { ROLES } from "@petri/contracts/vocabulary";
import { ForbiddenError, UnauthenticatedError } from "./errors.js";
import type { Principal } from "./principal.js";

export type AccountAudience = "account" | "staff";

const ACCOUNT_ROLES: ReadonlySet<Principal["role"]> = new Set(ROLES);

/** The principal, when it may call an operation for this audience; 401 or 403 otherwise. */
export function authorizeAccount(principal: Principal | undefined, audience: AccountAudience): Principal {
  if (!principal) throw new UnauthenticatedError("authentication required");
  if (!ACCOUNT_ROLES.has(principal.role)) throw new ForbiddenError("this operation acts for an account");
  if (audience === "staff" && principal.role !== "staff")
    throw new ForbiddenError("this operation is for staff only");
  return principal;
}

export function isStaff(principal: Principal): boolean {
  return principal.role === "staff";
}
