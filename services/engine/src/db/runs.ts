/**
 * The engine_runs table, read and written here only: the owner's runs and the worker's queue.
 * Every write a worker makes is guarded by its lease (lease_owner), so a worker that lost its
 * run (lease expired and taken over, or the run deleted) changes nothing.
 */
import { LeasedQueue, type LeasedQueueTable } from "@petri/db";
import { isId } from "@petri/service-kit";
import { type Kysely, sql } from "kysely";
import type { RunStatus } from "../domain/run.js";
import type { EngineDb, EngineRunRow } from "./schema.js";

export type NewRun = Pick<
  EngineRunRow,
  "id" | "owner_account_id" | "query" | "context" | "job_type" | "experiment_type" | "created_at"
>;

export async function insertRun(db: Kysely<EngineDb>, run: NewRun): Promise<EngineRunRow> {
  return db
    .insertInto("engine_runs")
    .values({
      ...run,
      status: "PENDING",
      progress_stage: "queued",
      progress_percentage: 0,
      result: null,
      error: null,
      error_code: null,
      edited_hypothesis: null,
      attempts: 0,
      lease_owner: null,
      lease_until: null,
      started_at: null,
      completed_at: null,
      updated_at: run.created_at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Serialises the starts of one account (the active-run limit), until the transaction ends. */
export async function lockAccountStarts(trx: Kysely<EngineDb>, ownerAccountId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`engine-start:${ownerAccountId}`}, 0))`.execute(
    trx,
  );
}

/** The owner's PENDING and RUNNING runs, newest first. */
export async function activeRuns(db: Kysely<EngineDb>, ownerAccountId: string): Promise<EngineRunRow[]> {
  return db
    .selectFrom("engine_runs")
    .selectAll()
    .where("owner_account_id", "=", ownerAccountId)
    .where("status", "in", ["PENDING", "RUNNING"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

/** A string that is not a run id is simply not found. */
export async function findRun(db: Kysely<EngineDb>, id: string): Promise<EngineRunRow | undefined> {
  if (!isId("run", id)) return undefined;
  return db.selectFrom("engine_runs").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listRuns(
  db: Kysely<EngineDb>,
  ownerAccountId: string,
  status: RunStatus | null,
  page: { limit: number; offset: number },
): Promise<{ runs: EngineRunRow[]; total: number }> {
  let base = db.selectFrom("engine_runs").where("owner_account_id", "=", ownerAccountId);
  if (status !== null) base = base.where("status", "=", status);
  const { total } = await base.select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow();
  const runs = await base
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { runs, total };
}

export async function deleteRunsOf(db: Kysely<EngineDb>, ownerAccountId: string): Promise<number> {
  const result = await db
    .deleteFrom("engine_runs")
    .where("owner_account_id", "=", ownerAccountId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function setEditedHypothesis(
  db: Kysely<EngineDb>,
  id: string,
  edited: { statement: string; null_hypothesis: string },
  now: Date,
): Promise<EngineRunRow | undefined> {
  return db
    .updateTable("engine_runs")
    .set({ edited_hypothesis: JSON.stringify(edited), updated_at: now })
    .where("id", "=", id)
    .where("status", "=", "COMPLETED")
    .returningAll()
    .executeTakeFirst();
}

/**
 * The run queue: PENDING runs, oldest first; a lease makes a run RUNNING under its worker,
 * and every later write of that worker is guarded by both.
 */
const RUN_QUEUE: LeasedQueueTable<EngineDb, "engine_runs"> = {
  table: "engine_runs",
  waiting: (eb) => eb("status", "=", "PENDING"),
  orderBy: ["created_at", "id"],
  owner: "lease_owner",
  attempts: "attempts",
  held: (eb) => eb("status", "=", "RUNNING"),
};

const runQueue = (db: Kysely<EngineDb>) => new LeasedQueue(db, RUN_QUEUE);

/**
 * Leases up to `limit` PENDING runs, oldest first, for `owner` until `leaseUntil`: RUNNING,
 * attempts + 1. Replicas lease side by side without waiting on each other.
 */
export function leasePendingRuns(
  db: Kysely<EngineDb>,
  owner: string,
  limit: number,
  now: Date,
  leaseUntil: Date,
): Promise<EngineRunRow[]> {
  return runQueue(db).lease({
    now,
    leaseUntil,
    limit,
    owner,
    set: {
      status: "RUNNING",
      started_at: sql<Date>`coalesce(started_at, ${now})`,
      progress_stage: "queued",
      progress_percentage: 0,
      updated_at: now,
    },
  });
}

/**
 * RUNNING runs whose lease expired (their worker stopped or died): back to PENDING while
 * attempts remain, else FAILED "interrupted". Returns how many of each.
 */
export async function recoverExpiredRuns(
  db: Kysely<EngineDb>,
  now: Date,
  maxAttempts: number,
): Promise<{ requeued: number; failed: number }> {
  const queue = runQueue(db);
  const requeued = await queue.takeOverExpired(
    now,
    { status: "PENDING", progress_stage: "queued", progress_percentage: 0, updated_at: now },
    (eb) => eb("attempts", "<", maxAttempts),
  );
  const failed = await queue.takeOverExpired(
    now,
    {
      status: "FAILED",
      error_code: "interrupted",
      error: "the run was interrupted (its worker stopped) and no attempt remains; start it again",
      progress_stage: "failed",
      completed_at: now,
      updated_at: now,
    },
    (eb) => eb("attempts", ">=", maxAttempts),
  );
  return { requeued, failed };
}

/** The earliest lease expiry of a RUNNING run (when recovery may next have work). */
export function nextLeaseExpiry(db: Kysely<EngineDb>): Promise<Date | undefined> {
  return runQueue(db).nextLeaseExpiry();
}

type LeaseRef = { id: string; owner: string };

/** Progress and a renewed lease; false when the worker no longer holds the run. */
export function reportProgress(
  db: Kysely<EngineDb>,
  ref: LeaseRef,
  progress: { stage: string; percentage: number },
  now: Date,
  leaseUntil: Date,
): Promise<boolean> {
  return runQueue(db).extend(ref, leaseUntil, {
    progress_stage: progress.stage,
    progress_percentage: progress.percentage,
    updated_at: now,
  });
}

/** True when the worker still held the run (it was not deleted, taken over or finished meanwhile). */
export async function completeRun(
  db: Kysely<EngineDb>,
  ref: LeaseRef,
  result: { experimentType: string; resultJson: string },
  now: Date,
): Promise<boolean> {
  const updated = await runQueue(db).complete(ref, {
    status: "COMPLETED",
    experiment_type: result.experimentType,
    result: result.resultJson,
    progress_stage: "done",
    progress_percentage: 100,
    completed_at: now,
    updated_at: now,
  });
  return updated === 1;
}

export async function failRun(
  db: Kysely<EngineDb>,
  ref: LeaseRef,
  failure: { code: string; message: string },
  now: Date,
): Promise<boolean> {
  const updated = await runQueue(db).complete(ref, {
    status: "FAILED",
    error_code: failure.code,
    error: failure.message,
    progress_stage: "failed",
    completed_at: now,
    updated_at: now,
  });
  return updated === 1;
}

/** A graceful stop hands the run back: PENDING again, this attempt not counted. */
export async function releaseRun(db: Kysely<EngineDb>, ref: LeaseRef, now: Date): Promise<boolean> {
  const released = await runQueue(db).release(ref, {
    status: "PENDING",
    progress_stage: "queued",
    progress_percentage: 0,
    updated_at: now,
  });
  return released === 1;
}
