import { REASON_MAX_LENGTH, requiredText } from "../domain/text.js";
import { lockOperator, saveOperatorChange, transitionOrThrow } from "./operator-changes.js";
import { type ChangingDeps, type OperatorView, viewOf } from "./operator-view.js";

/**
 * Staff reject an operator awaiting verification, with a reason (required, kept while it is
 * rejected): pending_verification -> rejected (409 invalid_state otherwise). The operator may
 * correct its profile and submit again.
 */
export function makeRejectOperator(deps: ChangingDeps) {
  return async function rejectOperator(input: { operatorId: string; reason: string }): Promise<OperatorView> {
    const reason = requiredText("reason", input.reason, REASON_MAX_LENGTH);
    const now = deps.clock.now();
    const view = await deps.unitOfWork.run(async (trx) => {
      const current = await lockOperator(trx, input.operatorId);
      const next = transitionOrThrow(current, { type: "reject", reason }, now, "reason");
      const updated = await saveOperatorChange(trx, current, {
        status: next.status,
        statusReason: next.reason ?? reason,
        updatedAt: now,
      });
      return viewOf(trx, updated);
    });
    return view;
  };
}
