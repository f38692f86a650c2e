import type { Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import type { ExperimentsDb } from "../db/schema.js";
import { loadVisible } from "./experiment-access.js";

/** One experiment with full details: its requester's or its operator's, or any for staff; 404 otherwise. */
export function makeGetExperiment(deps: { db: Kysely<ExperimentsDb> }) {
  return async function getExperiment(principal: Principal, experimentId: string): Promise<ExperimentRecord> {
    return loadRecord(deps.db, await loadVisible(deps.db, principal, experimentId));
  };
}
