import type { Principal } from "@petri/service-kit";
import { updateHypothesis } from "../db/hypotheses.js";
import { type Hypothesis, archiveChanges, hasChanges } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";
import { recordHypothesisSaved } from "./hypothesis-events.js";
import { ownedHypothesis } from "./owned-hypothesis.js";

/** The soft delete: one of the caller's hypotheses becomes ARCHIVED from any status; again is a no-op. */
export function makeArchiveHypothesis(deps: ChangingDeps) {
  return async function archiveHypothesis(principal: Principal, id: string): Promise<Hypothesis> {
    const current = await ownedHypothesis(deps.db, principal, id);
    const changes = archiveChanges(current);
    if (!hasChanges(changes)) return current;
    const now = deps.clock.now();
    return deps.unitOfWork.run(async (trx) => {
      const saved = await updateHypothesis(trx, current, { ...changes, updatedAt: now });
      await recordHypothesisSaved(trx, saved, now);
      return saved;
    });
  };
}
