/**
 * The operators table: one lab per account, read and written here only. Rows hold the profile
 * and verification record as validated by the domain; reads give them back typed.
 */
import { ConflictError, isId, pageTotal } from "@petri/service-kit";
import { type Kysely, sql } from "kysely";
import type { OperatorStatusName } from "@petri/contracts/vocabulary";
import type { OperatorProfile } from "../domain/operators/profile.js";
import type { RecordedQuality } from "../domain/operators/quality.js";
import type { VerificationRecord } from "../domain/operators/verification.js";
import type { MarketplaceDb, OperatorRow } from "./schema.js";

export interface OperatorRecord {
  id: string;
  accountId: string;
  status: OperatorStatusName;
  profile: OperatorProfile;
  verification: VerificationRecord | null;
  /** Reason of the last rejection or suspension while in that status. */
  statusReason: string | null;
  labName: string;
  quality: RecordedQuality;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

function recordOf(row: OperatorRow): OperatorRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    status: row.status,
    profile: row.profile as unknown as OperatorProfile,
    verification: row.verification as unknown as VerificationRecord | null,
    statusReason: row.status_reason,
    labName: row.lab_name,
    quality: row.quality as unknown as RecordedQuality,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** With `lock`, FOR UPDATE (inside a transaction): changes to one operator queue up. */
export async function findOperatorByAccount(
  db: Kysely<MarketplaceDb>,
  accountId: string,
  options: { lock?: boolean } = {},
): Promise<OperatorRecord | undefined> {
  let query = db.selectFrom("operators").selectAll().where("account_id", "=", accountId);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && recordOf(row);
}

/** A string that is not an operator id is simply not found. */
export async function findOperator(
  db: Kysely<MarketplaceDb>,
  id: string,
  options: { lock?: boolean } = {},
): Promise<OperatorRecord | undefined> {
  if (!isId("op", id)) return undefined;
  let query = db.selectFrom("operators").selectAll().where("id", "=", id);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && recordOf(row);
}

/** Inserts a new operator; undefined when the account already has one (a concurrent first submit). */
export async function insertOperator(
  db: Kysely<MarketplaceDb>,
  record: OperatorRecord,
): Promise<OperatorRecord | undefined> {
  const row = await db
    .insertInto("operators")
    .values({
      id: record.id,
      account_id: record.accountId,
      status: record.status,
      profile: JSON.stringify(record.profile),
      verification: record.verification === null ? null : JSON.stringify(record.verification),
      status_reason: record.statusReason,
      lab_name: record.labName,
      quality: JSON.stringify(record.quality),
      version: record.version,
      created_at: record.createdAt,
      updated_at: record.updatedAt,
    })
    .onConflict((oc) => oc.column("account_id").doNothing())
    .returningAll()
    .executeTakeFirst();
  return row && recordOf(row);
}

export type OperatorChanges = Partial<
  Pick<OperatorRecord, "status" | "profile" | "verification" | "statusReason" | "labName">
> & { updatedAt: Date };

/**
 * Applies a change guarded by the version the caller read (compare-and-set) and bumps the
 * version. Zero rows means someone else changed the operator first: a retryable 409.
 */
export async function updateOperator(
  db: Kysely<MarketplaceDb>,
  current: Pick<OperatorRecord, "id" | "version">,
  changes: OperatorChanges,
): Promise<OperatorRecord> {
  const row = await db
    .updateTable("operators")
    .set({
      ...(changes.status === undefined ? {} : { status: changes.status }),
      ...(changes.profile === undefined ? {} : { profile: JSON.stringify(changes.profile) }),
      ...(changes.verification === undefined
        ? {}
        : { verification: changes.verification === null ? null : JSON.stringify(changes.verification) }),
      ...(changes.statusReason === undefined ? {} : { status_reason: changes.statusReason }),
      ...(changes.labName === undefined ? {} : { lab_name: changes.labName }),
      updated_at: changes.updatedAt,
      version: current.version + 1,
    })
    .where("id", "=", current.id)
    .where("version", "=", current.version)
    .returningAll()
    .executeTakeFirst();
  if (!row)
    throw new ConflictError("the operator changed meanwhile; retry", "concurrent_update", {
      retryable: true,
    });
  return recordOf(row);
}

/** Replaces the computed quality metrics (not a profile change: the version stays). */
export async function saveOperatorQuality(
  db: Kysely<MarketplaceDb>,
  operatorId: string,
  quality: RecordedQuality,
): Promise<void> {
  await db
    .updateTable("operators")
    .set({ quality: JSON.stringify(quality) })
    .where("id", "=", operatorId)
    .execute();
}

export interface OperatorPage {
  records: OperatorRecord[];
  /** Every match (not only after the cursor): undefined unless counted or known (pageTotal). */
  total: number | undefined;
  hasMore: boolean;
}

/** Newest first, keyset (created_at, id) descending: the page after `after`. */
export async function listOperators(
  db: Kysely<MarketplaceDb>,
  filter: { status?: OperatorStatusName | undefined },
  page: { limit: number; after?: { at: Date; id: string } | undefined; countTotal: boolean },
): Promise<OperatorPage> {
  let base = db.selectFrom("operators");
  if (filter.status) base = base.where("status", "=", filter.status);
  let query = base.selectAll();
  const after = page.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", after.at),
        eb.and([eb("created_at", "=", after.at), eb("id", "<", after.id)]),
      ]),
    );
  }
  const rows = await query
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(page.limit + 1)
    .execute();
  const hasMore = rows.length > page.limit;
  const records = rows.slice(0, page.limit).map(recordOf);
  const total = await pageTotal(
    { first: after === undefined, hasMore, size: records.length },
    page.countTotal
      ? async () =>
          (await base.select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow()).total
      : undefined,
  );
  return { records, total, hasMore };
}

/** Active operators, at most `limit` (lab ranking's bounded scan), by id. */
export async function activeOperators(db: Kysely<MarketplaceDb>, limit: number): Promise<OperatorRecord[]> {
  const rows = await db
    .selectFrom("operators")
    .selectAll()
    .where("status", "=", "active")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(recordOf);
}
