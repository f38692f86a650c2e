import type { Kysely } from "kysely";
import type { NotificationsDb, WebhookAccountRow } from "./schema.js";

/**
 * The account's delivery state, created on first use and locked for the transaction. Every
 * change that depends on whether the account is paused (recording a failure, pausing,
 * resuming, replaying, secrets) takes this lock first, and scheduling a delivery holds the
 * account in share mode (shareAccount), so a pause and a new delivery never interleave.
 */
export async function lockAccount(
  trx: Kysely<NotificationsDb>,
  accountId: string,
  now: Date,
): Promise<WebhookAccountRow> {
  await createAccountIfMissing(trx, accountId, now);
  return trx
    .selectFrom("webhook_accounts")
    .selectAll()
    .where("account_id", "=", accountId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/**
 * The account's delivery state, created on first use, held in share mode for the
 * transaction: scheduling deliveries only needs the account to stay as it is read (not
 * paused, resumed or given a new secret meanwhile, which all take `lockAccount`), so
 * deliveries of one account are scheduled side by side instead of one after the other.
 * One statement once the account exists.
 */
export async function shareAccount(
  trx: Kysely<NotificationsDb>,
  accountId: string,
  now: Date,
): Promise<WebhookAccountRow> {
  const held = () =>
    trx.selectFrom("webhook_accounts").selectAll().where("account_id", "=", accountId).forShare();
  const existing = await held().executeTakeFirst();
  if (existing) return existing;
  await createAccountIfMissing(trx, accountId, now);
  return held().executeTakeFirstOrThrow();
}

/** An account's delivery state starts unpaused; a concurrent first use is no conflict. */
async function createAccountIfMissing(
  trx: Kysely<NotificationsDb>,
  accountId: string,
  now: Date,
): Promise<void> {
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
