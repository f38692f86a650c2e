/**
 * The engine_runs table, read and written here only: the owner's runs and the worker's queue.
 * Every write a worker makes is guarded by its lease (lease_owner), so a worker that lost its
 * run (lease expired and taken over, or the run deleted) changes nothing.
 */
import { isId } from "@petri/service-kit";
import { type ExpressionBuilder, type Kysely, type UpdateObject, sql } from "kysely";
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
 * Leases up to `limit` PENDING runs, oldest first, for `owner` until `leaseUntil`: RUNNING,
 * attempts + 1. SKIP LOCKED lets replicas lease side by side without waiting on each other.
 */
export async function leasePendingRuns(
  db: Kysely<EngineDb>,
  owner: string,
  limit: number,
  now: Date,
  leaseUntil: Date,
): Promise<EngineRunRow[]> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom("engine_runs")
      .select("id")
      .where("status", "=", "PENDING")
      .orderBy("created_at")
      .orderBy("id")
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    return trx
      .updateTable("engine_runs")
      .set((eb) => ({
        status: "RUNNING",
        attempts: eb("attempts", "+", 1),
        lease_owner: owner,
        lease_until: leaseUntil,
        started_at: sql<Date>`coalesce(started_at, ${now})`,
        progress_stage: "queued",
        progress_percentage: 0,
        updated_at: now,
      }))
      .where(
        "id",
        "in",
        due.map((row) => row.id),
      )
      .returningAll()
      .execute();
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
  const requeued = await db
    .updateTable("engine_runs")
    .set({
      status: "PENDING",
      lease_owner: null,
      lease_until: null,
      progress_stage: "queued",
      progress_percentage: 0,
      updated_at: now,
    })
    .where("status", "=", "RUNNING")
    .where("lease_until", "<", now)
    .where("attempts", "<", maxAttempts)
    .executeTakeFirst();
  const failed = await db
    .updateTable("engine_runs")
    .set({
      status: "FAILED",
      error_code: "interrupted",
      error: "the run was interrupted (its worker stopped) and no attempt remains; start it again",
      progress_stage: "failed",
      lease_owner: null,
      lease_until: null,
      completed_at: now,
      updated_at: now,
    })
    .where("status", "=", "RUNNING")
    .where("lease_until", "<", now)
    .where("attempts", ">=", maxAttempts)
    .executeTakeFirst();
  return { requeued: Number(requeued.numUpdatedRows), failed: Number(failed.numUpdatedRows) };
}

/** The earliest lease expiry of a RUNNING run (when recovery may next have work). */
export async function nextLeaseExpiry(db: Kysely<EngineDb>): Promise<Date | undefined> {
  const row = await db
    .selectFrom("engine_runs")
    .select((eb) => eb.fn.min("lease_until").as("next"))
    .where("status", "=", "RUNNING")
    .executeTakeFirst();
  return row?.next ? new Date(row.next as Date) : undefined;
}

type LeaseRef = { id: string; owner: string };

/**
 * Changes a run only while `ref.owner` still holds it RUNNING (it was not deleted, taken over or
 * finished meanwhile); true when it did.
 */
async function updateLeased(
  db: Kysely<EngineDb>,
  ref: LeaseRef,
  changes:
    | UpdateObject<EngineDb, "engine_runs">
    | ((eb: ExpressionBuilder<EngineDb, "engine_runs">) => UpdateObject<EngineDb, "engine_runs">),
): Promise<boolean> {
  const result = await db
    .updateTable("engine_runs")
    .set(changes)
    .where("id", "=", ref.id)
    .where("status", "=", "RUNNING")
    .where("lease_owner", "=", ref.owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Progress and a renewed lease; false when the worker no longer holds the run. */
export function reportProgress(
  db: Kysely<EngineDb>,
  ref: LeaseRef,
  progress: { stage: string; percentage: number },
  now: Date,
  leaseUntil: Date,
): Promise<boolean> {
  return updateLeased(db, ref, {
    progress_stage: progress.stage,
    progress_percentage: progress.percentage,
    lease_until: leaseUntil,
    updated_at: now,
  });
}

const released = (now: Date) => ({ lease_owner: null, lease_until: null, updated_at: now });

export function completeRun(
  db: Kysely<EngineDb>,
  ref: LeaseRef,
  result: { experimentType: string; resultJson: string },
  now: Date,
): Promise<boolean> {
  return updateLeased(db, ref, {
    ...released(now),
    status: "COMPLETED",
    experiment_type: result.experimentType,
    result: result.resultJson,
    progress_stage: "done",
    progress_percentage: 100,
    completed_at: now,
  });
}

export function failRun(
  db: Kysely<EngineDb>,
  ref: LeaseRef,
  failure: { code: string; message: string },
  now: Date,
): Promise<boolean> {
  return updateLeased(db, ref, {
    ...released(now),
    status: "FAILED",
    error_code: failure.code,
    error: failure.message,
    progress_stage: "failed",
    completed_at: now,
  });
}

/** A graceful stop hands the run back: PENDING again, this attempt not counted. */
export function releaseRun(db: Kysely<EngineDb>, ref: LeaseRef, now: Date): Promise<boolean> {
  return updateLeased(db, ref, (eb) => ({
    ...released(now),
    status: "PENDING",
    attempts: eb("attempts", "-", 1),
    progress_stage: "queued",
    progress_percentage: 0,
  }));
}
