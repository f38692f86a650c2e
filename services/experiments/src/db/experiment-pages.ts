/** Pages of experiments: a requester's or everyone's list, and the review queue (keyset pages). */
import { FixedQueryVariants } from "@petri/db";
import type { ExperimentStatusName } from "@petri/contracts/vocabulary";
import { type Keyset, pageTotal } from "@petri/service-kit";
import type { Kysely, SelectQueryBuilder } from "kysely";
import { type ExperimentView, selectViews, viewsOf } from "./experiment-records.js";
import type { ExperimentsDb } from "./schema.js";

export interface ExperimentFilter {
  /** Only this requester's experiments (undefined: everyone's, for staff). */
  requesterAccountId?: string | undefined;
  status?: ExperimentStatusName | undefined;
  /** created_at > createdAfter. */
  createdAfter?: Date | undefined;
  /** created_at < createdBefore. */
  createdBefore?: Date | undefined;
}

export interface ExperimentPage {
  records: ExperimentView[];
  /** Every match (not only after the cursor): undefined unless counted or known (pageTotal). */
  total: number | undefined;
  hasMore: boolean;
}

export interface KeysetPageRequest {
  limit: number;
  after?: Keyset | undefined;
  /** Count every match (a second statement unless the first page holds them all). */
  countTotal: boolean;
}

/**
 * One page of views from `rows` (limit + 1 rows fetched, so has_more needs no count) and, if
 * asked, the count of every match of `filtered` (the query before keyset, order and limit).
 */
async function pageOf(
  rows: Parameters<typeof viewsOf>[0],
  filtered: () => SelectQueryBuilder<ExperimentsDb, "experiments", object>,
  page: KeysetPageRequest,
): Promise<ExperimentPage> {
  const hasMore = rows.length > page.limit;
  const records = viewsOf(rows.slice(0, page.limit));
  const total = await pageTotal(
    { first: page.after === undefined, hasMore, size: records.length },
    page.countTotal
      ? async () =>
          Number(
            (
              await filtered()
                .select((eb) => eb.fn.countAll<number>().as("n"))
                .executeTakeFirstOrThrow()
            ).n,
          )
      : undefined,
  );
  return { records, total, hasMore };
}

/** Which optional parts a list query has: each combination is one fixed query. */
interface ListShape {
  requester: boolean;
  status: boolean;
  createdAfter: boolean;
  createdBefore: boolean;
  after: boolean;
}

interface ListValues extends Record<string, unknown> {
  requester: string | undefined;
  status: ExperimentStatusName | undefined;
  createdAfter: Date | undefined;
  createdBefore: Date | undefined;
  afterAt: Date | undefined;
  afterId: string | undefined;
  rows: number;
}

function filtered(
  db: Kysely<ExperimentsDb>,
  shape: Omit<ListShape, "after">,
  value: <K extends "requester" | "status" | "createdAfter" | "createdBefore">(
    name: K,
  ) => Exclude<ListValues[K], undefined>,
) {
  let base = db.selectFrom("experiments");
  if (shape.requester) base = base.where("experiments.requester_account_id", "=", value("requester"));
  if (shape.status) base = base.where("experiments.status", "=", value("status"));
  if (shape.createdAfter) base = base.where("experiments.created_at", ">", value("createdAfter"));
  if (shape.createdBefore) base = base.where("experiments.created_at", "<", value("createdBefore"));
  return base;
}

const listPage = new FixedQueryVariants<
  ExperimentsDb,
  ListShape,
  ListValues,
  Parameters<typeof viewsOf>[0][number]
>(
  (shape) =>
    [shape.requester, shape.status, shape.createdAfter, shape.createdBefore, shape.after]
      .map((present) => (present ? "1" : "0"))
      .join(""),
  (db, value, shape) => {
    let query = selectViews(filtered(db, shape, value))
      .orderBy("experiments.created_at", "desc")
      .orderBy("experiments.id", "desc")
      .limit(value("rows"));
    if (shape.after)
      query = query.where((eb) =>
        eb(
          eb.refTuple("experiments.created_at", "experiments.id"),
          "<",
          eb.tuple(value("afterAt"), value("afterId")),
        ),
      );
    return query;
  },
  { prepared: true },
);

/** Newest first, keyset (created_at, id) descending: the page after `after`. */
export async function listExperiments(
  db: Kysely<ExperimentsDb>,
  filter: ExperimentFilter,
  page: KeysetPageRequest,
): Promise<ExperimentPage> {
  const shape = {
    requester: filter.requesterAccountId !== undefined,
    status: filter.status !== undefined,
    createdAfter: filter.createdAfter !== undefined,
    createdBefore: filter.createdBefore !== undefined,
  };
  const values: ListValues = {
    requester: filter.requesterAccountId,
    status: filter.status,
    createdAfter: filter.createdAfter,
    createdBefore: filter.createdBefore,
    afterAt: page.after?.at,
    afterId: page.after?.id,
    rows: page.limit + 1,
  };
  const rows = await listPage.execute(db, { ...shape, after: page.after !== undefined }, values);
  return pageOf(rows, () => filtered(db, shape, (name) => values[name] as never), page);
}

const reviewQueuePage = new FixedQueryVariants<
  ExperimentsDb,
  { after: boolean },
  { afterAt: Date | undefined; afterId: string | undefined; rows: number },
  Parameters<typeof viewsOf>[0][number]
>(
  (shape) => (shape.after ? "after" : "first"),
  (db, value, shape) => {
    let query = selectViews(reviewQueue(db))
      .orderBy("experiments.submitted_at", "asc")
      .orderBy("experiments.id", "asc")
      .limit(value("rows"));
    if (shape.after)
      query = query.where((eb) =>
        eb(
          eb.refTuple("experiments.submitted_at", "experiments.id"),
          ">",
          eb.tuple(value("afterAt"), value("afterId")),
        ),
      );
    return query;
  },
  { prepared: true },
);

function reviewQueue(db: Kysely<ExperimentsDb>) {
  return db.selectFrom("experiments").where("experiments.status", "=", "pending_review");
}

/** The staff review queue: pending_review, oldest submission first, keyset (submitted_at, id) ascending. */
export async function listReviewQueue(
  db: Kysely<ExperimentsDb>,
  page: KeysetPageRequest,
): Promise<ExperimentPage> {
  const rows = await reviewQueuePage.execute(
    db,
    { after: page.after !== undefined },
    { afterAt: page.after?.at, afterId: page.after?.id, rows: page.limit + 1 },
  );
  return pageOf(rows, () => reviewQueue(db), page);
}
