import type { Principal } from "@petri/service-kit";
import { deleteRunsOf } from "../db/runs.js";
import type { ReadingDeps } from "./deps.js";

/**
 * POST /cloud-labs/engine/runs/clear-history: deletes all of the caller's runs, as the spec
 * says, active ones too; a worker executing a deleted run finds its lease gone and drops the
 * result (every worker write is lease-guarded).
 */
export function makeClearRunHistory(deps: ReadingDeps) {
  return function clearRunHistory(principal: Principal): Promise<number> {
    return deleteRunsOf(deps.db, principal.accountId);
  };
}
