/** Loading an experiment for a use case, with the authorization that depends on the row. */
import { NotFoundError, type Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findExperiment } from "../db/experiments.js";
import type { ExperimentRow, ExperimentsDb } from "../db/schema.js";
import { assertRequester, assertVisible } from "../domain/authorization.js";

/** The experiment if the principal may see it (requester or staff), else 404; locked with `lock`. */
export async function loadVisible(
  db: Kysely<ExperimentsDb>,
  principal: Principal,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ExperimentRow> {
  const row = await findExperiment(db, id, options);
  if (!row) throw new NotFoundError("experiment", id);
  assertVisible(principal, row);
  return row;
}

/** The experiment, locked, for an action only its requester may take (404 to others, 403 to other staff). */
export async function lockOwned(
  db: Kysely<ExperimentsDb>,
  principal: Principal,
  id: string,
): Promise<ExperimentRow> {
  const row = await findExperiment(db, id, { lock: true });
  if (!row) throw new NotFoundError("experiment", id);
  assertRequester(principal, row);
  return row;
}
