import type { Clock, Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { ExperimentsDb } from "../db/schema.js";
import { loadVisible } from "./experiment-access.js";
import { type SignedResults, signedResults } from "./result-links.js";

/**
 * GET /experiments/{id}/results: the docs/api.md results record with signed file URLs valid for
 * FILE_URL_TTL_SECONDS. For the requester, the assigned operator and staff (404 to anyone
 * else), from pending_approval on (409 invalid_state before; see domain/lifecycle/results-access).
 */
export function makeGetResults(deps: {
  db: Kysely<ExperimentsDb>;
  clock: Clock;
  signingKey(): Promise<Uint8Array>;
}) {
  return async function getResults(principal: Principal, experimentId: string): Promise<SignedResults> {
    const experiment = await loadVisible(deps.db, principal, experimentId);
    return signedResults(deps.db, experiment, await deps.signingKey(), deps.clock.now());
  };
}
