/** Loading an experiment for a use case, with the authorization that depends on the row. */
import { ConflictError, NotFoundError, type Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findExperiment } from "../db/experiments.js";
import type { ExperimentRow, ExperimentsDb } from "../db/schema.js";
import { assertAssignedOperator, assertRequester, assertVisible } from "../domain/authorization.js";

/** The experiment if the principal may see it (requester, assigned operator or staff), else 404; locked with `lock`. */
export async function loadVisible(
  db: Kysely<ExperimentsDb>,
  principal: Principal,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ExperimentRow> {
  return loadAuthorized(db, principal, id, assertVisible, options);
}

/** The experiment, locked, for an action only its requester may take (404 to those who cannot see it, 403 to staff and its operator). */
export async function lockOwned(
  db: Kysely<ExperimentsDb>,
  principal: Principal,
  id: string,
): Promise<ExperimentRow> {
  return loadAuthorized(db, principal, id, assertRequester, { lock: true });
}

/**
 * The experiment, locked, for an action only its assigned operator may take (404 to those
 * who cannot see it, 403 to its requester and staff).
 */
export async function lockAssigned(
  db: Kysely<ExperimentsDb>,
  principal: Principal,
  id: string,
): Promise<ExperimentRow> {
  return loadAuthorized(db, principal, id, assertAssignedOperator, { lock: true });
}

/**
 * The experiment, not locked, for an action only its requester may take, to be applied with
 * a compare-and-set on the status and version read here (updateExperiment). Concurrent
 * decisions taken on the same reading (approve and dispute sent together) then exclude each
 * other: the second one's UPDATE finds the row changed.
 */
export async function loadOwned(
  db: Kysely<ExperimentsDb>,
  principal: Principal,
  id: string,
): Promise<ExperimentRow> {
  return loadAuthorized(db, principal, id, assertRequester);
}

/** The experiment (locked with `lock`) once `authorize` let the principal act on it; 404 when there is none. */
async function loadAuthorized(
  db: Kysely<ExperimentsDb>,
  principal: Principal,
  id: string,
  authorize: (principal: Principal, row: ExperimentRow) => void,
  options: { lock?: boolean } = {},
): Promise<ExperimentRow> {
  const row = await findExperiment(db, id, options);
  if (!row) throw new NotFoundError("experiment", id);
  authorize(principal, row);
  return row;
}

/**
 * Runs a compare-and-set change read without a lock. When another change got there first
 * (ConflictError concurrent_update), `recheck` runs on the row as it is now: it throws the
 * answer that state deserves (typically 409 invalid_state); if it accepts the new state, the
 * retryable conflict stands.
 */
export async function withStateRecheck<T>(
  db: Kysely<ExperimentsDb>,
  id: string,
  change: () => Promise<T>,
  recheck: (now: ExperimentRow) => void,
): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!(error instanceof ConflictError) || error.code !== "concurrent_update") throw error;
    const now = await findExperiment(db, id);
    if (now) recheck(now);
    throw error;
  }
}
