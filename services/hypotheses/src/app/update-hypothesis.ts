import type { Principal } from "@petri/service-kit";
import { updateHypothesis } from "../db/hypotheses.js";
import { type Hypothesis, type HypothesisPatch, hasChanges, patchChanges } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";
import { recordHypothesisSaved } from "./hypothesis-events.js";
import { ownedHypothesis } from "./owned-hypothesis.js";

/**
 * Changes the supplied fields of one of the caller's DRAFT hypotheses (status only to
 * ARCHIVED). A patch that changes nothing leaves the record, its version and updated_at alone.
 */
export function makeUpdateHypothesis(deps: ChangingDeps) {
  return async function updateHypothesisUseCase(
    principal: Principal,
    input: { id: string; patch: HypothesisPatch },
  ): Promise<Hypothesis> {
    const current = await ownedHypothesis(deps.db, principal, input.id);
    const changes = patchChanges(current, input.patch);
    if (!hasChanges(changes)) return current;
    const now = deps.clock.now();
    return deps.unitOfWork.run(async (trx) => {
      const saved = await updateHypothesis(trx, current, { ...changes, updatedAt: now });
      await recordHypothesisSaved(trx, saved, now);
      return saved;
    });
  };
}
