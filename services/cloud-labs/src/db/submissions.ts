/**
 * The submissions table, read and written here only: the owner's submissions and the worker's
 * queue. Worker writes are guarded by the lease and by the status the worker read, so a
 * cancel racing a poll cannot be overwritten.
 */
import { LeasedQueue, type LeasedQueueTable } from "@petri/db";
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

/**
 * The worker's queue: non-final submissions, each due at its next check (the send, or the next
 * poll), earliest first.
 */
const SUBMISSION_QUEUE: LeasedQueueTable<CloudLabsDb, "submissions"> = {
  table: "submissions",
  waiting: (eb) => eb("status", "in", ["pending", "submitted", "queued", "running"]),
  dueAt: "next_check_at",
  orderBy: ["next_check_at"],
  owner: "lease_owner",
  retryAt: "next_check_at",
};

const submissionQueue = (db: Kysely<CloudLabsDb>) => new LeasedQueue(db, SUBMISSION_QUEUE);

/** Leases up to `limit` due, non-final submissions for `owner`, skipping those others are leasing. */
export function leaseDueSubmissions(
  db: Kysely<CloudLabsDb>,
  owner: string,
  limit: number,
  now: Date,
  leaseUntil: Date,
): Promise<SubmissionRow[]> {
  return submissionQueue(db).lease({ now, leaseUntil, limit, owner });
}

/** When the next non-final submission falls due (for the worker's sleep). */
export function nextDueAt(db: Kysely<CloudLabsDb>): Promise<Date | undefined> {
  return submissionQueue(db).nextDueAt();
}

/**
 * Applies a change to a submission still in `expected` status, bumping the version. Undefined
 * when it moved meanwhile.
 */
export async function updateSubmission(
  db: Kysely<CloudLabsDb>,
  ref: { id: string; expected: SubmissionStatus },
  changes: Omit<Updateable<SubmissionsTable>, "version" | "id">,
): Promise<SubmissionRow | undefined> {
  return db
    .updateTable("submissions")
    .set((eb) => ({ ...changes, version: eb("version", "+", 1) }))
    .where("id", "=", ref.id)
    .where("status", "=", ref.expected)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The worker's change to a submission it leased and read in `expected` status, bumping the
 * version and ending the lease. Undefined when the submission moved meanwhile (a cancel) or
 * the lease was taken over.
 */
export function finishLeasedSubmission(
  trx: Kysely<CloudLabsDb>,
  ref: { id: string; expected: SubmissionStatus; leaseOwner: string },
  changes: Omit<Updateable<SubmissionsTable>, "version" | "id" | "lease_owner" | "lease_until">,
): Promise<SubmissionRow | undefined> {
  return submissionQueue(trx).completeReturning(
    { id: ref.id, owner: ref.leaseOwner },
    (eb) => ({ ...changes, version: eb("version", "+", 1) }),
    { where: (eb) => eb("status", "=", ref.expected) },
  );
}

/** Lets go of a lease without changing anything else (the next check is due at `nextCheckAt`). */
export async function releaseSubmission(
  db: Kysely<CloudLabsDb>,
  ref: { id: string; leaseOwner: string },
  changes: { next_check_at: Date; send_attempts?: number },
): Promise<void> {
  const { next_check_at, ...rest } = changes;
  await submissionQueue(db).retry({ id: ref.id, owner: ref.leaseOwner }, next_check_at, rest);
}
