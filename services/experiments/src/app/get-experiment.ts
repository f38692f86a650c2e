import { NotFoundError, type Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { type ExperimentView, findView } from "../db/experiment-records.js";
import type { ExperimentsDb } from "../db/schema.js";
import { assertVisible } from "../domain/authorization.js";

/**
 * One experiment with full details: its requester's or its operator's, or any for staff; 404
 * otherwise. One statement: the experiment with its issues and dispute.
 */
export function makeGetExperiment(deps: { db: Kysely<ExperimentsDb> }) {
  return async function getExperiment(principal: Principal, experimentId: string): Promise<ExperimentView> {
    const view = await findView(deps.db, experimentId);
    if (!view) throw new NotFoundError("experiment", experimentId);
    assertVisible(principal, view);
    return view;
  };
}
