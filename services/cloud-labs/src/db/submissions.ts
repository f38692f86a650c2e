/**
 * The submissions table, read and written here only: the owner's submissions and the worker's
 * queue. Worker writes are guarded by the lease and by the status the worker read, so a
 * cancel racing a poll cannot be overwritten.
 */
import { isId } from "@petri/service-kit";
import { type Kysely, type Updateable, sql } from "kysely";
import type { SubmissionStatus } from "../domain/submission.js";
import type { CloudLabsDb, SubmissionRow, SubmissionsTable } from "./schema.js";

export type NewSubmission = Omit<
  SubmissionRow,
  | "translated_protocol"
  | "plan"
  | "results"
  | "cancel_requested"
  | "send_attempts"
  | "lease_owner"
  | "lease_until"
  | "estimated_cost_cents"
  | "version"
> & { translated_protocol: unknown; plan: unknown; estimated_cost_cents: number };

export async function insertSubmission(db: Kysely<CloudLabsDb>, row: NewSubmission): Promise<SubmissionRow> {
  return db
    .insertInto("submissions")
    .values({
      ...row,
      translated_protocol: JSON.stringify(row.translated_protocol),
      plan: JSON.stringify(row.plan),
      results: null,
      version: 1,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findSubmission(
  db: Kysely<CloudLabsDb>,
  id: string,
): Promise<SubmissionRow | undefined> {
  if (!isId("cls", id)) return undefined;
  return db.selectFrom("submissions").selectAll().where("id", "=", id).executeTakeFirst();
}

export interface SubmissionFilter {
  experimentId: string | null;
  providerId: string | null;
  status: SubmissionStatus | null;
}

export async function listSubmissions(
  db: Kysely<CloudLabsDb>,
  ownerAccountId: string,
  filter: SubmissionFilter,
  page: { limit: number; offset: number },
): Promise<{ submissions: SubmissionRow[]; total: number }> {
  let base = db.selectFrom("submissions").where("owner_account_id", "=", ownerAccountId);
  if (filter.experimentId !== null) base = base.where("experiment_id", "=", filter.experimentId);
  if (filter.providerId !== null) base = base.where("provider_id", "=", filter.providerId);
  if (filter.status !== null) base = base.where("status", "=", filter.status);
  const { total } = await base.select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow();
  const submissions = await base
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { submissions, total };
}

/** Leases up to `limit` due, non-final submissions for `owner` (FOR UPDATE SKIP LOCKED). */
export async function leaseDueSubmissions(
  db: Kysely<CloudLabsDb>,
  owner: string,
  limit: number,
  now: Date,
  leaseUntil: Date,
): Promise<SubmissionRow[]> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom("submissions")
      .select("id")
      .where("status", "in", ["pending", "submitted", "queued", "running"])
      .where("next_check_at", "<=", now)
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
      .orderBy("next_check_at")
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    return trx
      .updateTable("submissions")
      .set({ lease_owner: owner, lease_until: leaseUntil })
      .where(
        "id",
        "in",
        due.map((row) => row.id),
      )
      .returningAll()
      .execute();
  });
}

/** When the next non-final submission falls due (for the worker's sleep). */
export async function nextDueAt(db: Kysely<CloudLabsDb>): Promise<Date | undefined> {
  const row = await db
    .selectFrom("submissions")
    .select((eb) => eb.fn.min("next_check_at").as("next"))
    .where("status", "in", ["pending", "submitted", "queued", "running"])
    .executeTakeFirst();
  return row?.next ? new Date(row.next as Date) : undefined;
}

/**
 * Applies a change to a submission still in `expected` status (and, for a worker, still leased
 * by it), bumping the version. Undefined when it moved meanwhile.
 */
export async function updateSubmission(
  db: Kysely<CloudLabsDb>,
  ref: { id: string; expected: SubmissionStatus; leaseOwner?: string },
  changes: Omit<Updateable<SubmissionsTable>, "version" | "id">,
): Promise<SubmissionRow | undefined> {
  let query = db
    .updateTable("submissions")
    .set((eb) => ({ ...changes, version: eb("version", "+", 1) }))
    .where("id", "=", ref.id)
    .where("status", "=", ref.expected);
  if (ref.leaseOwner !== undefined) query = query.where("lease_owner", "=", ref.leaseOwner);
  return query.returningAll().executeTakeFirst();
}

/** Lets go of a lease without changing anything else (the next check is due at `nextCheckAt`). */
export async function releaseSubmission(
  db: Kysely<CloudLabsDb>,
  ref: { id: string; leaseOwner: string },
  changes: { next_check_at: Date; send_attempts?: number },
): Promise<void> {
  await db
    .updateTable("submissions")
    .set({ ...changes, lease_owner: null, lease_until: null })
    .where("id", "=", ref.id)
    .where("lease_owner", "=", ref.leaseOwner)
    .execute();
}
