import type { Kysely } from "kysely";
import type { NotificationsDb, WebhookAccountRow } from "./schema.js";

/**
 * The account's delivery state, created on first use and locked for the transaction. Every
 * change that depends on whether the account is paused (scheduling a delivery, recording a
 * failure, pausing, resuming, replaying) takes this lock first, so a pause and a new
 * delivery never interleave.
 */
export async function lockAccount(
  trx: Kysely<NotificationsDb>,
  accountId: string,
  now: Date,
): Promise<WebhookAccountRow> {
  await trx
    .insertInto("webhook_accounts")
    .values({
      account_id: accountId,
      paused_at: null,
      paused_by_delivery_id: null,
      resumed_at: null,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column("account_id").doNothing())
    .execute();
  return trx
    .selectFrom("webhook_accounts")
    .selectAll()
    .where("account_id", "=", accountId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export function findAccount(
  db: Kysely<NotificationsDb>,
  accountId: string,
): Promise<WebhookAccountRow | undefined> {
  return db.selectFrom("webhook_accounts").selectAll().where("account_id", "=", accountId).executeTakeFirst();
}

/** Pauses the account (the caller holds its lock and knows it is not paused). */
export async function pauseAccount(
  trx: Kysely<NotificationsDb>,
  accountId: string,
  byDeliveryId: string,
  now: Date,
): Promise<void> {
  await trx
    .updateTable("webhook_accounts")
    .set((eb) => ({
      paused_at: now,
      paused_by_delivery_id: byDeliveryId,
      pauses: eb("pauses", "+", 1),
      updated_at: now,
    }))
    .where("account_id", "=", accountId)
    .execute();
}

export async function unpauseAccount(
  trx: Kysely<NotificationsDb>,
  accountId: string,
  now: Date,
): Promise<void> {
  await trx
    .updateTable("webhook_accounts")
    .set({ paused_at: null, paused_by_delivery_id: null, resumed_at: now, updated_at: now })
    .where("account_id", "=", accountId)
    .execute();
}
