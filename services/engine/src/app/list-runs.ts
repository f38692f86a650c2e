import { type Principal, ValidationError, parsePage } from "@petri/service-kit";
import { listRuns } from "../db/runs.js";
import type { EngineRunRow } from "../db/schema.js";
import { RUN_STATUSES } from "../domain/run.js";
import type { ReadingDeps } from "./deps.js";

/** GET /cloud-labs/engine/runs: the caller's runs, newest first, optionally of one status. */
export function makeListRuns(deps: ReadingDeps) {
  return async function listRunsUseCase(
    principal: Principal,
    raw: { status: string; limit: number; offset: number },
  ): Promise<{ runs: EngineRunRow[]; total: number; limit: number; offset: number }> {
    const statusText = raw.status.trim();
    const status = statusText === "" ? null : RUN_STATUSES.find((known) => known === statusText);
    if (status === undefined)
      throw new ValidationError("the listing request is invalid", [
        {
          field: "status",
          code: "invalid_value",
          message: `status must be one of ${RUN_STATUSES.join(", ")}`,
        },
      ]);
    const page = parsePage({ limit: raw.limit, offset: raw.offset });
    return { ...(await listRuns(deps.db, principal.accountId, status, page)), ...page };
  };
}
