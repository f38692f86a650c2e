import type { AccountRegistered } from "@petri/contracts/identity";
import type { Kysely } from "kysely";
import type { NotificationsDb } from "../db/schema.js";

/**
 * Keeps the e-mail address of an account for delivery-paused notices. Idempotent and
 * order-tolerant: a row is only replaced by a newer account version.
 */
export async function recordAccountContact(
  trx: Kysely<NotificationsDb>,
  event: AccountRegistered,
  meta: { aggregateVersion: number; occurredAt: Date },
): Promise<void> {
  const account = event.account;
  if (!account) return;
  await trx
    .insertInto("account_contacts")
    .values({
      account_id: account.id,
      email: account.email,
      name: account.name,
      account_version: meta.aggregateVersion,
      updated_at: meta.occurredAt,
    })
    .onConflict((conflict) =>
      conflict
        .column("account_id")
        .doUpdateSet((eb) => ({
          email: eb.ref("excluded.email"),
          name: eb.ref("excluded.name"),
          account_version: eb.ref("excluded.account_version"),
          updated_at: eb.ref("excluded.updated_at"),
        }))
        .where("account_contacts.account_version", "<", (eb) => eb.ref("excluded.account_version")),
    )
    .execute();
}
