import type { Principal } from "@petri/service-kit";
import { type Hypothesis, type HypothesisPatch, hasChanges, patchChanges } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";
import { ownedHypothesis } from "./owned-hypothesis.js";
import { saveHypothesisChanges } from "./save-hypothesis.js";

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
    return saveHypothesisChanges(deps, current, changes);
  };
}
