/** The experiments table: one row per experiment (the aggregate), read and written here only. */
import { ConflictError, isId } from "@petri/service-kit";
import type { Insertable, Kysely, Updateable } from "kysely";
import type { Keyset } from "../domain/pagination.js";
import type { ExperimentStatus } from "../domain/lifecycle/transitions.js";
import type { ExperimentRow, ExperimentsDb, ExperimentsTable } from "./schema.js";

const JSON_COLUMNS = [
  "request",
  "raw_request",
  "cost_breakdown",
  "review_reasons",
  "safety_flags",
  "protocol_proposal",
  "proposal_comments",
] as const;

/** Values as read (parsed JSON); encode() turns the jsonb ones into JSON text for a write. */
export type ExperimentValues = Omit<ExperimentRow, "version" | "hold_cents"> & { hold_cents: number };
export type ExperimentChanges = Partial<
  Omit<ExperimentRow, "id" | "requester_account_id" | "created_at" | "version">
>;

function encode(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  for (const column of JSON_COLUMNS) {
    if (column in out) {
      const value = out[column];
      // JSON text for jsonb on both engines (see @petri/db jsonb()).
      out[column] = value === null || value === undefined ? null : JSON.stringify(value);
    }
  }
  return out;
}

export async function insertExperiment(
  db: Kysely<ExperimentsDb>,
  values: ExperimentValues,
): Promise<ExperimentRow> {
  return db
    .insertInto("experiments")
    .values(encode(values) as Insertable<ExperimentsTable>)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * One experiment by id; with `lock`, FOR UPDATE (inside a transaction), so concurrent
 * changes to one experiment queue up instead of racing. A string that is not an experiment
 * id is simply not found.
 */
export async function findExperiment(
  db: Kysely<ExperimentsDb>,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ExperimentRow | undefined> {
  if (!isId("exp", id)) return undefined;
  let query = db.selectFrom("experiments").selectAll().where("id", "=", id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * Applies a change guarded by the status and version the caller read (compare-and-set:
 * WHERE status = expected AND version = expected), bumps the version and updated_at.
 * Zero rows means someone else changed the experiment first: a retryable 409.
 */
export async function updateExperiment(
  db: Kysely<ExperimentsDb>,
  current: Pick<ExperimentRow, "id" | "status" | "version">,
  changes: ExperimentChanges & { updated_at: Date },
): Promise<ExperimentRow> {
  const updated = await db
    .updateTable("experiments")
    .set((eb) => ({
      ...(encode(changes) as Updateable<ExperimentsTable>),
      version: eb("version", "+", 1),
    }))
    .where("id", "=", current.id)
    .where("status", "=", current.status)
    .where("version", "=", current.version)
    .returningAll()
    .executeTakeFirst();
  if (!updated)
    throw new ConflictError("the experiment changed meanwhile; retry", "concurrent_update", {
      retryable: true,
    });
  return updated;
}

export interface ExperimentFilter {
  /** Only this requester's experiments (undefined: everyone's, for staff). */
  requesterAccountId?: string | undefined;
  status?: ExperimentStatus | undefined;
  /** created_at > createdAfter. */
  createdAfter?: Date | undefined;
  /** created_at < createdBefore. */
  createdBefore?: Date | undefined;
}

export interface ExperimentPage {
  rows: ExperimentRow[];
  total: number;
  hasMore: boolean;
}

/** Newest first, keyset (created_at, id) descending: the page after `after`. */
export async function listExperiments(
  db: Kysely<ExperimentsDb>,
  filter: ExperimentFilter,
  page: { limit: number; after?: Keyset | undefined },
): Promise<ExperimentPage> {
  let base = db.selectFrom("experiments");
  if (filter.requesterAccountId !== undefined)
    base = base.where("requester_account_id", "=", filter.requesterAccountId);
  if (filter.status !== undefined) base = base.where("status", "=", filter.status);
  if (filter.createdAfter !== undefined) base = base.where("created_at", ">", filter.createdAfter);
  if (filter.createdBefore !== undefined) base = base.where("created_at", "<", filter.createdBefore);

  let rowsQuery = base
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(page.limit + 1);
  const after = page.after;
  if (after)
    rowsQuery = rowsQuery.where((eb) =>
      eb(eb.refTuple("created_at", "id"), "<", eb.tuple(after.at, after.id)),
    );
  const [rows, count] = await Promise.all([
    rowsQuery.execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.slice(0, page.limit), total: Number(count.n), hasMore: rows.length > page.limit };
}

/** The staff review queue: pending_review, oldest submission first, keyset (submitted_at, id) ascending. */
export async function listReviewQueue(
  db: Kysely<ExperimentsDb>,
  page: { limit: number; after?: Keyset | undefined },
): Promise<ExperimentPage> {
  const base = db.selectFrom("experiments").where("status", "=", "pending_review");
  let rowsQuery = base
    .selectAll()
    .orderBy("submitted_at", "asc")
    .orderBy("id", "asc")
    .limit(page.limit + 1);
  const after = page.after;
  if (after)
    rowsQuery = rowsQuery.where((eb) =>
      eb(eb.refTuple("submitted_at", "id"), ">", eb.tuple(after.at, after.id)),
    );
  const [rows, count] = await Promise.all([
    rowsQuery.execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.slice(0, page.limit), total: Number(count.n), hasMore: rows.length > page.limit };
}
