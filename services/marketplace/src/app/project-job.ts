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
 */
export async function projectJob(
  trx: Kysely<MarketplaceDb>,
  change: JobChange,
  now: Date,
): Promise<JobRecord> {
  if (isFirstVersion(change)) {
    const created = applyJobChange(undefined, change);
    if (await insertJob(trx, created, now)) return created;
  }
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
