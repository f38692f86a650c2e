/** disputes: raised by requesters, resolved by staff; at most one open per experiment. */
import { type Keyset, isId, pageTotal } from "@petri/service-kit";
import type { Insertable, Kysely } from "kysely";
import type { DisputeRow, DisputesTable, ExperimentsDb } from "./schema.js";

export type DisputeValues = Omit<DisputeRow, "evidence_urls"> & { evidence_urls: string[] };

export async function insertDispute(db: Kysely<ExperimentsDb>, values: DisputeValues): Promise<DisputeRow> {
  return db
    .insertInto("disputes")
    .values({ ...values, evidence_urls: JSON.stringify(values.evidence_urls) } as Insertable<DisputesTable>)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** One dispute by id; with `lock`, FOR UPDATE inside a transaction. Not an id: not found. */
export async function findDispute(
  db: Kysely<ExperimentsDb>,
  id: string,
  options: { lock?: boolean } = {},
): Promise<DisputeRow | undefined> {
  if (!isId("dsp", id)) return undefined;
  let query = db.selectFrom("disputes").selectAll().where("id", "=", id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The resolution, guarded by the status (WHERE status = 'open'); undefined when already resolved. */
export async function resolveOpenDispute(
  db: Kysely<ExperimentsDb>,
  id: string,
  resolution: Pick<
    DisputeRow,
    | "outcome"
    | "requester_amount_cents"
    | "operator_amount_cents"
    | "resolution_note"
    | "resolved_by"
    | "resolved_at"
  >,
): Promise<DisputeRow | undefined> {
  return db
    .updateTable("disputes")
    .set({ ...resolution, status: "resolved" })
    .where("id", "=", id)
    .where("status", "=", "open")
    .returningAll()
    .executeTakeFirst();
}

export interface DisputePage {
  rows: DisputeRow[];
  /** Every match (not only after the cursor): undefined unless counted or known (pageTotal). */
  total: number | undefined;
  hasMore: boolean;
}

/** Oldest first (the staff queue), keyset (created_at, id) ascending: the page after `after`. */
export async function listDisputes(
  db: Kysely<ExperimentsDb>,
  filter: { status?: DisputeRow["status"] | undefined },
  page: { limit: number; after?: Keyset | undefined; countTotal: boolean },
): Promise<DisputePage> {
  let base = db.selectFrom("disputes");
  if (filter.status !== undefined) base = base.where("status", "=", filter.status);
  let rowsQuery = base
    .selectAll()
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .limit(page.limit + 1);
  const after = page.after;
  if (after)
    rowsQuery = rowsQuery.where((eb) =>
      eb(eb.refTuple("created_at", "id"), ">", eb.tuple(after.at, after.id)),
    );
  const rows = await rowsQuery.execute();
  const hasMore = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  const total = await pageTotal(
    { first: after === undefined, hasMore, size: pageRows.length },
    page.countTotal
      ? async () =>
          Number((await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n)
      : undefined,
  );
  return { rows: pageRows, total, hasMore };
}
