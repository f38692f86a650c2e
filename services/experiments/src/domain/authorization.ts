/**
 * Who may do what with experiments. Checked where the data is (DESIGN.md section 6):
 *
 * - account: any account acting for itself (requester, operator, staff); never the
 *   gateway's "system" principal, which acts for no account.
 * - staff: staff accounts only (review queue, approvals, protocol proposals).
 * - An experiment is visible to its requester and to staff. To anyone else it does not
 *   exist: 404 not_found, never 403, so ids of other tenants leak nothing.
 * - Acting on an experiment as its requester (submit, patch, cancel, accept a proposal, ask
 *   for changes) is for the requester only; staff who can see it but do not own it get 403.
 */
import { ForbiddenError, NotFoundError, type Principal, UnauthenticatedError } from "@petri/service-kit";

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

/** True when the principal may read an experiment owned by `requesterAccountId`. */
export function canSee(principal: Principal, requesterAccountId: string): boolean {
  return isStaff(principal) || principal.accountId === requesterAccountId;
}

/** Throws NotFound unless the principal may read the experiment. */
export function assertVisible(
  principal: Principal,
  experiment: { id: string; requester_account_id: string },
) {
  if (!canSee(principal, experiment.requester_account_id))
    throw new NotFoundError("experiment", experiment.id);
}

/** Throws NotFound (cannot see it) or Forbidden (staff, not the requester) unless the principal owns it. */
export function assertRequester(
  principal: Principal,
  experiment: { id: string; requester_account_id: string },
) {
  assertVisible(principal, experiment);
  if (principal.accountId !== experiment.requester_account_id)
    throw new ForbiddenError("only the requester of an experiment can do this");
}
