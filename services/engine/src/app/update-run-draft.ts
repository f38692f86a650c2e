import { InvalidStateError, type Principal } from "@petri/service-kit";
import { setEditedHypothesis } from "../db/runs.js";
import type { EngineRunRow } from "../db/schema.js";
import { editedHypothesis } from "../domain/run.js";
import type { ChangingDeps } from "./deps.js";
import { ownedRun } from "./owned-run.js";

/**
 * PATCH /cloud-labs/engine/runs/{id}/draft: keeps the caller's edit of a COMPLETED run's
 * hypothesis next to the engine's result (which stays as the engine wrote it).
 */
export function makeUpdateRunDraft(deps: ChangingDeps) {
  return async function updateRunDraft(
    principal: Principal,
    input: { runId: string; statement: string; nullHypothesis: string },
  ): Promise<EngineRunRow> {
    const run = await ownedRun(deps.db, principal, input.runId);
    const edited = editedHypothesis(run.status, input);
    const updated = await setEditedHypothesis(deps.db, run.id, edited, deps.clock.now());
    // Only a COMPLETED run is edited, and COMPLETED is final: a miss means it was deleted meanwhile.
    if (!updated)
      throw new InvalidStateError("the run is gone or no longer completed", run.status, ["COMPLETED"]);
    return updated;
  };
}
