/**
 * The account role that follows from a lab's operator status (marketplace
 * OperatorEligibilityChanged): verification grants the operator role, and losing it
 * (suspension, or a rejection) takes it back.
 *
 * - active or paused: "operator" (a paused lab is still a verified operator, just not taking jobs).
 * - any other status (onboarding, pending_verification, rejected, suspended): "requester" if the
 *   account is an operator now; otherwise unchanged.
 * - staff are never demoted or promoted by a lab's status: staff outrank operators.
 */
import type { OperatorStatusName, RoleName } from "@petri/contracts/vocabulary";

/** The operator statuses of a verified lab. */
const VERIFIED_STATUSES: ReadonlySet<string> = new Set<OperatorStatusName>(["active", "paused"]);

export function roleForOperatorStatus(current: RoleName, operatorStatus: string): RoleName {
  if (current === "staff") return current;
  if (VERIFIED_STATUSES.has(operatorStatus)) return "operator";
  return current === "operator" ? "requester" : current;
}
