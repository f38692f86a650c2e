import type { Kysely } from "kysely";
import { findJob, insertJob, replaceJob } from "../db/jobs.js";
import type { MarketplaceDb } from "../db/schema.js";
import { type JobChange, type JobRecord, applyJobChange, isFirstVersion } from "../domain/jobs/projection.js";

/**
 * Applies one experiments event to the job projection (domain/jobs/projection.ts): the row
 * is locked, the change applied by the pure rule and written back only when it changed. A
 * concurrent first event of the same experiment may insert the row first; then it is read
 * again, locked, and the change applied to it.
 *
 * A change of the experiment's first version nearly always finds no row (its job is new), so
 * it tries the insert before any read: one statement instead of two. Should the row be there
 * (a later version arrived first, or a replay), the insert does nothing and the change takes
 * the locked path like any other.
 *
 * The rule is idempotent and order-free (a change older than the row only moves its first
 * open time earlier), so the consumer applies it without an inbox row (D365): `db` is then the
 * service's database, and the locked path opens a transaction of its own; given a transaction
 * (a dead letter's replay, a test), it runs in it.
 */
export async function projectJob(
  db: Kysely<MarketplaceDb>,
  change: JobChange,
  now: Date,
): Promise<JobRecord> {
  if (isFirstVersion(change)) {
    const created = applyJobChange(undefined, change);
    if (await insertJob(db, created, now)) return created;
  }
  const locked = (trx: Kysely<MarketplaceDb>) => applyLocked(trx, change, now);
  return db.isTransaction ? locked(db) : db.transaction().execute(locked);
}

async function applyLocked(trx: Kysely<MarketplaceDb>, change: JobChange, now: Date): Promise<JobRecord> {
  const current = await findJob(trx, change.experimentId, { lock: true });
  const next = applyJobChange(current, change);
  if (current === undefined) {
    if (await insertJob(trx, next, now)) return next;
    const raced = await findJob(trx, change.experimentId, { lock: true });
    if (!raced) throw new Error(`job ${change.experimentId} conflicted but is not visible`);
    const merged = applyJobChange(raced, change);
    if (merged !== raced) await replaceJob(trx, merged, now);
    return merged;
  }
  if (next !== current) await replaceJob(trx, next, now);
  return next;
}
