import type { Clock } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { purgeKeys } from "../db/idempotency-keys.js";
import type { ExperimentsDb } from "../db/schema.js";
import { idempotencyCutoff } from "../domain/idempotency.js";

/** Housekeeping, run on a timer: idempotency keys completed more than 24 hours ago. */
export function makePurgeIdempotencyKeys(deps: { db: Kysely<ExperimentsDb>; clock: Clock }) {
  return async function purgeIdempotencyKeys(): Promise<number> {
    return purgeKeys(deps.db, idempotencyCutoff(deps.clock.now()));
  };
}
