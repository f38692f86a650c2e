import { ConflictError, type Principal, newId } from "@petri/service-kit";
import type { EngineRunLimits } from "../config.js";
import { activeRuns, insertRun, lockAccountStarts } from "../db/runs.js";
import type { EngineRunRow } from "../db/schema.js";
import { runInput } from "../domain/run.js";
import type { ChangingDeps } from "./deps.js";

/**
 * POST /cloud-labs/engine/start: queues a run (PENDING) and wakes the worker. An account has
 * at most `maxActiveRunsPerAccount` PENDING or RUNNING runs (default 1): another start is 409
 * engine_run_active naming the newest active run, which the caller can poll (or wait for)
 * instead. Starts of one account are serialised so two concurrent ones cannot both pass.
 */
export function makeStartRun(deps: ChangingDeps & { limits: EngineRunLimits; wakeWorker(): void }) {
  return async function startRun(
    principal: Principal,
    raw: { query: string; context: string; jobType: string; experimentType: string },
  ): Promise<EngineRunRow> {
    const input = runInput(raw);
    const now = deps.clock.now();
    const run = await deps.db.transaction().execute(async (trx) => {
      await lockAccountStarts(trx, principal.accountId);
      const active = await activeRuns(trx, principal.accountId);
      if (active.length >= deps.limits.maxActiveRunsPerAccount)
        throw new ConflictError(
          `you already have ${active.length} active engine run(s) (the limit is ${deps.limits.maxActiveRunsPerAccount}); wait for it to finish`,
          "engine_run_active",
          { active_run_id: active[0]!.id, limit: deps.limits.maxActiveRunsPerAccount },
        );
      return insertRun(trx, {
        id: newId("run", now),
        owner_account_id: principal.accountId,
        query: input.query,
        context: input.context,
        job_type: input.jobType,
        experiment_type: input.experimentType,
        created_at: now,
      });
    });
    deps.wakeWorker();
    return run;
  };
}
