import { REASON_MAX_LENGTH, requiredText } from "../domain/text.js";
import { lockOperator, saveOperatorChange, transitionOrThrow } from "./operator-changes.js";
import { type ChangingDeps, type OperatorView, viewOf } from "./operator-view.js";

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
    const reason = requiredText("reason", input.reason, REASON_MAX_LENGTH);
    const now = deps.clock.now();
    const view = await deps.unitOfWork.run(async (trx) => {
      const current = await lockOperator(trx, input.operatorId);
      const next = transitionOrThrow(current, { type: "suspend", reason }, now, "reason");
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
