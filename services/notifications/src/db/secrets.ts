import type { Kysely } from "kysely";
import type { NotificationsDb, WebhookSecretRow } from "./schema.js";

/** The account's current secret (the one that is not retiring), locked for the transaction. */
export function lockCurrentSecret(
  trx: Kysely<NotificationsDb>,
  accountId: string,
): Promise<WebhookSecretRow | undefined> {
  return trx
    .selectFrom("webhook_secrets")
    .selectAll()
    .where("account_id", "=", accountId)
    .where("retires_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
}

/** The account's current secret, without a row lock (see SigningSecretVault.ensureCurrent). */
export function findCurrentSecret(
  db: Kysely<NotificationsDb>,
  accountId: string,
): Promise<WebhookSecretRow | undefined> {
  return db
    .selectFrom("webhook_secrets")
    .selectAll()
    .where("account_id", "=", accountId)
    .where("retires_at", "is", null)
    .executeTakeFirst();
}

/**
 * Inserts a current secret unless the account already has one (two first deliveries racing);
 * returns whether this row went in.
 */
export async function insertCurrentSecret(
  trx: Kysely<NotificationsDb>,
  row: Omit<WebhookSecretRow, "retires_at">,
): Promise<boolean> {
  const inserted = await trx
    .insertInto("webhook_secrets")
    .values({ ...row, retires_at: null })
    .onConflict((conflict) => conflict.column("account_id").where("retires_at", "is", null).doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Secrets that still sign at `now`: the current one and any in its overlap window, newest first. */
export function validSecrets(
  db: Kysely<NotificationsDb>,
  accountId: string,
  now: Date,
): Promise<WebhookSecretRow[]> {
  return db
    .selectFrom("webhook_secrets")
    .selectAll()
    .where("account_id", "=", accountId)
    .where((eb) => eb.or([eb("retires_at", "is", null), eb("retires_at", ">", now)]))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

export async function markRevealed(trx: Kysely<NotificationsDb>, secretId: string, now: Date): Promise<void> {
  await trx.updateTable("webhook_secrets").set({ revealed_at: now }).where("id", "=", secretId).execute();
}

/**
 * Starts a rotation: the current secret retires at `overlapUntil`, and a secret already in
 * an overlap window retires now (at most two secrets sign at any time).
 */
export async function retireForRotation(
  trx: Kysely<NotificationsDb>,
  accountId: string,
  now: Date,
  overlapUntil: Date,
): Promise<void> {
  await trx
    .updateTable("webhook_secrets")
    .set({ retires_at: now })
    .where("account_id", "=", accountId)
    .where("retires_at", ">", now)
    .execute();
  await trx
    .updateTable("webhook_secrets")
    .set({ retires_at: overlapUntil })
    .where("account_id", "=", accountId)
    .where("retires_at", "is", null)
    .execute();
}
