import type { Principal } from "@petri/service-kit";
import { activeRuns } from "../db/runs.js";
import type { EngineRunRow } from "../db/schema.js";
import type { ReadingDeps } from "./deps.js";

/** The caller's newest PENDING or RUNNING run, or undefined. */
export function makeGetActiveRun(deps: ReadingDeps) {
  return async function getActiveRun(principal: Principal): Promise<EngineRunRow | undefined> {
    const [newest] = await activeRuns(deps.db, principal.accountId);
    return newest;
  };
}
