import { changeWithReason } from "./operator-changes.js";
import type { ChangingDeps, OperatorView } from "./operator-view.js";

/**
 * Staff reject an operator awaiting verification, with a reason (required, kept while it is
 * rejected): pending_verification -> rejected (409 invalid_state otherwise). The operator may
 * correct its profile and submit again.
 */
export function makeRejectOperator(deps: ChangingDeps) {
  return async function rejectOperator(input: { operatorId: string; reason: string }): Promise<OperatorView> {
    return changeWithReason(deps, input, "reject");
  };
}
