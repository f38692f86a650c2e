import type { Principal } from "@petri/service-kit";
import { type Hypothesis, archiveChanges, hasChanges } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";
import { ownedHypothesis } from "./owned-hypothesis.js";
import { saveHypothesisChanges } from "./save-hypothesis.js";

/** The soft delete: one of the caller's hypotheses becomes ARCHIVED from any status; again is a no-op. */
export function makeArchiveHypothesis(deps: ChangingDeps) {
  return async function archiveHypothesis(principal: Principal, id: string): Promise<Hypothesis> {
    const current = await ownedHypothesis(deps.db, principal, id);
    const changes = archiveChanges(current);
    if (!hasChanges(changes)) return current;
    return saveHypothesisChanges(deps, current, changes);
  };
}
