import { NotFoundError, type Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findRun } from "../db/runs.js";
import type { EngineDb, EngineRunRow } from "../db/schema.js";

/** The caller's run `id`; 404 when it does not exist or is another account's (staff too). */
export async function ownedRun(
  db: Kysely<EngineDb>,
  principal: Principal,
  id: string,
): Promise<EngineRunRow> {
  const run = await findRun(db, id);
  if (!run || run.owner_account_id !== principal.accountId) throw new NotFoundError("engine run", id);
  return run;
}
