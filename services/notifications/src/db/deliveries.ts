import { LeasedQueue, type LeasedQueueTable } from "@petri/db";
import type { Keyset } from "@petri/service-kit";
import type { Insertable, Kysely, Updateable } from "kysely";
import type {
  DeliveryStatus,
  NotificationsDb,
  WebhookAttemptRow,
  WebhookDeliveriesTable,
  WebhookDeliveryRow,
} from "./schema.js";

/** Inserts a delivery unless its source event already has one; returns whether it went in. */
export async function insertDelivery(
  trx: Kysely<NotificationsDb>,
  row: Insertable<WebhookDeliveriesTable>,
): Promise<boolean> {
  const inserted = await trx
    .insertInto("webhook_deliveries")
    .values(row)
    .onConflict((conflict) => conflict.column("source_event_id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted !== undefined;
}

export function findDelivery(
  db: Kysely<NotificationsDb>,
  id: string,
): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirst();
}

export function lockDelivery(
  trx: Kysely<NotificationsDb>,
  id: string,
): Promise<WebhookDeliveryRow | undefined> {
  return trx.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function updateDelivery(
  trx: Kysely<NotificationsDb>,
  id: string,
  patch: Updateable<WebhookDeliveriesTable>,
): Promise<void> {
  await trx.updateTable("webhook_deliveries").set(patch).where("id", "=", id).execute();
}

/**
 * Due deliveries the worker may take, at most `perHost` per receiver and none for the
 * receivers it has no room for, oldest due first. A backlog for one receiver therefore never
 * hides another receiver's due delivery from the scan.
 */
export async function scanDue(
  db: Kysely<NotificationsDb>,
  input: { now: Date; perHost: number; excludedHosts: readonly string[]; limit: number },
): Promise<Array<{ id: string; host_key: string }>> {
  const ranked = db
    .selectFrom("webhook_deliveries")
    .select((eb) => [
      "id",
      "host_key",
      "next_attempt_at",
      eb.fn
        .agg<number>("row_number")
        .over((over) => over.partitionBy("host_key").orderBy("next_attempt_at").orderBy("id"))
        .as("rank"),
    ])
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", input.now)
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", input.now)]))
    .$if(input.excludedHosts.length > 0, (query) => query.where("host_key", "not in", input.excludedHosts));
  return db
    .selectFrom(ranked.as("ranked"))
    .select(["id", "host_key"])
    .where("rank", "<=", input.perHost)
    .orderBy("next_attempt_at")
    .orderBy("id")
    .limit(input.limit)
    .execute();
}

/**
 * The delivery queue: pending deliveries, each due at its next attempt. The worker chooses
 * which ones to lease (scanDue); the attempt's outcome ends the lease (record-delivery-attempt).
 */
const DELIVERY_QUEUE: LeasedQueueTable<NotificationsDb, "webhook_deliveries"> = {
  table: "webhook_deliveries",
  waiting: (eb) => eb("status", "=", "pending"),
  dueAt: "next_attempt_at",
  orderBy: ["next_attempt_at", "id"],
  owner: "lease_owner",
};

const deliveryQueue = (db: Kysely<NotificationsDb>) => new LeasedQueue(db, DELIVERY_QUEUE);

/**
 * Leases the given deliveries to `owner` until `leaseUntil`, skipping any another worker
 * took meanwhile: returns the rows now held.
 */
export function leaseDeliveries(
  db: Kysely<NotificationsDb>,
  input: { ids: readonly string[]; owner: string; now: Date; leaseUntil: Date },
): Promise<WebhookDeliveryRow[]> {
  return deliveryQueue(db).lease({
    ids: input.ids,
    limit: input.ids.length,
    owner: input.owner,
    now: input.now,
    leaseUntil: input.leaseUntil,
  });
}

/** The earliest next_attempt_at of a pending delivery (the worker sleeps until then). */
export function nextDueAt(db: Kysely<NotificationsDb>): Promise<Date | undefined> {
  return deliveryQueue(db).nextDueAt();
}

/**
 * Retention: deletes at most `limit` of the oldest attempts made before `cutoff`. A delivery
 * keeps its attempt_count, so the numbering of later attempts does not depend on these rows.
 */
export async function deleteAttemptsBefore(
  db: Kysely<NotificationsDb>,
  cutoff: Date,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom("webhook_attempts")
    .where((eb) =>
      eb(
        eb.refTuple("delivery_id", "number"),
        "in",
        eb
          .selectFrom("webhook_attempts")
          .select(["delivery_id", "number"])
          .where("attempted_at", "<", cutoff)
          .orderBy("attempted_at")
          .limit(limit)
          .$asTuple("delivery_id", "number"),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertAttempt(trx: Kysely<NotificationsDb>, attempt: WebhookAttemptRow): Promise<void> {
  await trx.insertInto("webhook_attempts").values(attempt).execute();
}

/** Holds the account's pending deliveries while it is paused. */
export async function pausePendingDeliveries(
  trx: Kysely<NotificationsDb>,
  accountId: string,
  now: Date,
): Promise<number> {
  const result = await trx
    .updateTable("webhook_deliveries")
    .set({ status: "paused", next_attempt_at: null, updated_at: now })
    .where("account_id", "=", accountId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Queues every paused delivery of the account again, each with a fresh cycle, due now. */
export async function resumePausedDeliveries(
  trx: Kysely<NotificationsDb>,
  accountId: string,
  now: Date,
): Promise<number> {
  const result = await trx
    .updateTable("webhook_deliveries")
    .set((eb) => ({
      status: "pending",
      cycle: eb("cycle", "+", 1),
      cycle_trigger: "resume",
      cycle_failures: 0,
      next_attempt_at: now,
      updated_at: now,
    }))
    .where("account_id", "=", accountId)
    .where("status", "=", "paused")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function countPausedDeliveries(db: Kysely<NotificationsDb>, accountId: string): Promise<number> {
  const row = await db
    .selectFrom("webhook_deliveries")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("account_id", "=", accountId)
    .where("status", "=", "paused")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface DeliveryFilter {
  accountId: string;
  experimentId?: string | undefined;
  status?: DeliveryStatus | undefined;
}

function filtered(db: Kysely<NotificationsDb>, filter: DeliveryFilter) {
  return db
    .selectFrom("webhook_deliveries")
    .where("account_id", "=", filter.accountId)
    .$if(filter.experimentId !== undefined, (query) =>
      query.where("experiment_id", "=", filter.experimentId!),
    )
    .$if(filter.status !== undefined, (query) => query.where("status", "=", filter.status!));
}

/** One page, newest first, after the keyset (exclusive). */
export function listDeliveries(
  db: Kysely<NotificationsDb>,
  filter: DeliveryFilter,
  after: Keyset | undefined,
  limit: number,
): Promise<WebhookDeliveryRow[]> {
  return filtered(db, filter)
    .selectAll()
    .$if(after !== undefined, (query) =>
      query.where((eb) =>
        eb.or([
          eb("created_at", "<", after!.at),
          eb.and([eb("created_at", "=", after!.at), eb("id", "<", after!.id)]),
        ]),
      ),
    )
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

export async function countDeliveries(db: Kysely<NotificationsDb>, filter: DeliveryFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The delivery's newest `limit` attempts, oldest first. */
export async function listAttempts(
  db: Kysely<NotificationsDb>,
  deliveryId: string,
  limit = 100,
): Promise<WebhookAttemptRow[]> {
  const newest = await db
    .selectFrom("webhook_attempts")
    .selectAll()
    .where("delivery_id", "=", deliveryId)
    .orderBy("number", "desc")
    .limit(limit)
    .execute();
  return newest.reverse();
}
