import { lockOperator, saveOperatorChange, transitionOrThrow } from "./operator-changes.js";
import { type ChangingDeps, type OperatorView, viewOf } from "./operator-view.js";

/**
 * Staff reinstate a suspended operator: suspended -> active (409 invalid_state otherwise),
 * with its existing verification record; the suspension reason is cleared.
 */
export function makeReinstateOperator(deps: ChangingDeps) {
  return async function reinstateOperator(input: { operatorId: string }): Promise<OperatorView> {
    const now = deps.clock.now();
    const view = await deps.unitOfWork.run(async (trx) => {
      const current = await lockOperator(trx, input.operatorId);
      const next = transitionOrThrow(current, { type: "reinstate" }, now, "status");
      const updated = await saveOperatorChange(trx, current, {
        status: next.status,
        statusReason: null,
        updatedAt: now,
      });
      return viewOf(trx, updated);
    });
    return view;
  };
}
