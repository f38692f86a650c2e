/**
 * Who may do what with experiments. Checked where the data is (docs/architecture.md section 6):
 *
 * - account: any account acting for itself (requester, operator, staff); never the
 *   gateway's "system" principal, which acts for no account.
 * - staff: staff accounts only (review queue, approvals, protocol proposals, disputes).
 * - signed_link: also the gateway's system principal. Only GetResultFile: the signed URL is
 *   the credential there, and the gateway calls with its own principal for GET /files/{id}.
 * - An experiment is visible to its requester, to the operator assigned to it (once claimed)
 *   and to staff. To anyone else it does not exist: 404 not_found, never 403, so ids of
 *   other tenants leak nothing.
 * - Acting on an experiment as its requester (submit, patch, cancel, accept a proposal, ask
 *   for changes, approve, dispute) is for the requester only; others who can see it (staff,
 *   the assigned operator) get 403.
 * - Acting as the assigned operator (start, report an issue, submit results) is for that
 *   operator's account only; others who can see it (the requester, staff) get 403.
 */
import {
  ForbiddenError,
  NotFoundError,
  type Principal,
  UnauthenticatedError,
  authorizeAccount,
  isStaff,
} from "@petri/service-kit";

export { isStaff };

export type Audience = "account" | "staff" | "signed_link";

/** A signed link is its own credential: any authenticated caller (the gateway) may present one. */
export function authorize(principal: Principal | undefined, audience: Audience): Principal {
  if (audience !== "signed_link") return authorizeAccount(principal, audience);
  if (!principal) throw new UnauthenticatedError("authentication required");
  return principal;
}

/** The parties of an experiment that authorization looks at. */
export interface ExperimentParties {
  id: string;
  requester_account_id: string;
  /** The assigned operator's account; null (or absent) before a claim. */
  operator_account_id?: string | null;
}

export function isAssignedOperator(principal: Principal, experiment: ExperimentParties): boolean {
  return (
    experiment.operator_account_id !== undefined &&
    experiment.operator_account_id !== null &&
    experiment.operator_account_id === principal.accountId
  );
}

/** True when the principal may read the experiment: its requester, its operator, or staff. */
export function canSee(principal: Principal, experiment: ExperimentParties): boolean {
  return (
    isStaff(principal) ||
    principal.accountId === experiment.requester_account_id ||
    isAssignedOperator(principal, experiment)
  );
}

/** Throws NotFound unless the principal may read the experiment. */
export function assertVisible(principal: Principal, experiment: ExperimentParties) {
  if (!canSee(principal, experiment)) throw new NotFoundError("experiment", experiment.id);
}

/** Throws NotFound (cannot see it) or Forbidden (sees it, not the requester) unless the principal owns it. */
export function assertRequester(principal: Principal, experiment: ExperimentParties) {
  assertVisible(principal, experiment);
  if (principal.accountId !== experiment.requester_account_id)
    throw new ForbiddenError("only the requester of an experiment can do this");
}

/** Throws NotFound (cannot see it) or Forbidden (sees it, not its operator) unless the principal is its operator. */
export function assertAssignedOperator(principal: Principal, experiment: ExperimentParties) {
  assertVisible(principal, experiment);
  if (!isAssignedOperator(principal, experiment))
    throw new ForbiddenError("only the operator assigned to the experiment can do this");
}
