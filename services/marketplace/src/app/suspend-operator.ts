import { changeWithReason } from "./operator-changes.js";
import type { ChangingDeps, OperatorView } from "./operator-view.js";

/**
 * Staff suspend an active or paused operator, with a reason (required, kept while it is
 * suspended): -> suspended (409 invalid_state otherwise). A suspended operator sees no jobs and
 * cannot claim (its eligibility snapshot says so); identity takes its operator role back.
 * Jobs it already holds are not taken from it.
 */
export function makeSuspendOperator(deps: ChangingDeps) {
  return async function suspendOperator(input: {
    operatorId: string;
    reason: string;
  }): Promise<OperatorView> {
    return changeWithReason(deps, input, "suspend");
  };
}
