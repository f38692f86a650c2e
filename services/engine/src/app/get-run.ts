import type { Principal } from "@petri/service-kit";
import type { EngineRunRow } from "../db/schema.js";
import type { ReadingDeps } from "./deps.js";
import { ownedRun } from "./owned-run.js";

export function makeGetRun(deps: ReadingDeps) {
  return function getRun(principal: Principal, runId: string): Promise<EngineRunRow> {
    return ownedRun(deps.db, principal, runId);
  };
}
