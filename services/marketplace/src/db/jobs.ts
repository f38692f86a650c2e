/** The jobs table: the projection of the experiments service's experiments (domain/jobs/projection.ts). */
import { FixedQuery } from "@petri/db";
import { type Kysely, sql } from "kysely";
import type { JobRecord } from "../domain/jobs/projection.js";
import type { StoredJobRequirements } from "../domain/jobs/requirements.js";
import type { JobRow, MarketplaceDb } from "./schema.js";

/** Statuses in which a job occupies its operator (the capacity filter). */
export const ACTIVE_JOB_STATUSES = ["claimed", "in_progress"] as const;

function recordOf(row: JobRow): JobRecord {
  return {
    experimentId: row.experiment_id,
    status: row.status,
    requesterAccountId: row.requester_account_id,
    title: row.title,
    requirements: row.requirements as unknown as StoredJobRequirements,
    postedAt: row.posted_at,
    operatorId: row.operator_id,
    version: row.version,
  };
}

function columnsOf(record: JobRecord, now: Date) {
  return {
    status: record.status,
    requester_account_id: record.requesterAccountId,
    title: record.title,
    requirements: JSON.stringify(record.requirements),
    posted_at: record.postedAt,
    operator_id: record.operatorId,
    version: record.version,
    updated_at: now,
  };
}

/** With `lock`, FOR UPDATE (inside a transaction), so events of one experiment apply one at a time. */
export async function findJob(
  db: Kysely<MarketplaceDb>,
  experimentId: string,
  options: { lock?: boolean } = {},
): Promise<JobRecord | undefined> {
  let query = db.selectFrom("jobs").selectAll().where("experiment_id", "=", experimentId);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && recordOf(row);
}

/** Inserts the first record of an experiment; false when a concurrent event inserted it first. */
export async function insertJob(db: Kysely<MarketplaceDb>, record: JobRecord, now: Date): Promise<boolean> {
  const inserted = await insertFirstRecord.executeTakeFirst(db, {
    experiment_id: record.experimentId,
    ...columnsOf(record, now),
  });
  return inserted !== undefined;
}

/** Compiled and prepared once: the first record of every experiment (each POST) is inserted so. */
const insertFirstRecord = new FixedQuery<
  MarketplaceDb,
  { experiment_id: string } & ReturnType<typeof columnsOf>,
  { experiment_id: string }
>(
  (db, value) =>
    db
      .insertInto("jobs")
      .values({
        experiment_id: value("experiment_id"),
        status: value("status"),
        requester_account_id: value("requester_account_id"),
        title: value("title"),
        requirements: value("requirements"),
        posted_at: value("posted_at"),
        operator_id: value("operator_id"),
        version: value("version"),
        updated_at: value("updated_at"),
      })
      .onConflict((oc) => oc.column("experiment_id").doNothing())
      .returning("experiment_id"),
  { prepared: true },
);

export async function replaceJob(db: Kysely<MarketplaceDb>, record: JobRecord, now: Date): Promise<void> {
  await db
    .updateTable("jobs")
    .set(columnsOf(record, now))
    .where("experiment_id", "=", record.experimentId)
    .execute();
}

/**
 * The newest `limit` open jobs (by first open time), leaving out one requester's own: the
 * job feed's bounded candidate scan.
 */
export async function openJobCandidates(
  db: Kysely<MarketplaceDb>,
  options: { excludeRequester: string; limit: number },
): Promise<JobRecord[]> {
  const rows = await db
    .selectFrom("jobs")
    .selectAll()
    .where("status", "=", "open")
    .where("posted_at", "is not", null)
    .where("requester_account_id", "<>", options.excludeRequester)
    .orderBy("posted_at", "desc")
    .orderBy("experiment_id", "desc")
    .limit(options.limit)
    .execute();
  return rows.map(recordOf);
}

/** Claimed and in-progress jobs per operator (0 for operators with none). */
export async function activeJobCounts(
  db: Kysely<MarketplaceDb>,
  operatorIds: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map(operatorIds.map((id) => [id, 0]));
  if (operatorIds.length === 0) return counts;
  const rows = await db
    .selectFrom("jobs")
    .select(["operator_id", sql<number>`count(*)::int`.as("active")])
    .where("operator_id", "in", [...operatorIds])
    .where("status", "in", [...ACTIVE_JOB_STATUSES])
    .groupBy("operator_id")
    .execute();
  for (const row of rows) if (row.operator_id !== null) counts.set(row.operator_id, row.active);
  return counts;
}

export async function activeJobCount(db: Kysely<MarketplaceDb>, operatorId: string): Promise<number> {
  return (await activeJobCounts(db, [operatorId])).get(operatorId) ?? 0;
}
