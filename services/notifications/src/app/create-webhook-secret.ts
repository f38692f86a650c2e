/**
 * POST /webhooks/secret: where an account obtains its signing secret, shown exactly once.
 * An account that has none gets a new one; an account whose secret was created for its
 * first delivery (deliveries are always signed) gets that one, the one time it is shown.
 * Once shown it is never shown again: 409 webhook_secret_already_revealed, and a lost secret
 * is replaced with a rotation.
 */
import { type Clock, ConflictError } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { lockAccount } from "../db/accounts.js";
import { insertCurrentSecret, lockCurrentSecret, markRevealed } from "../db/secrets.js";
import type { NotificationsDb } from "../db/schema.js";
import type { SigningSecretVault } from "./signing-secrets.js";
import type { SecretInfo } from "./get-webhook-settings.js";

export function makeCreateWebhookSecret(deps: {
  db: Kysely<NotificationsDb>;
  clock: Clock;
  vault: SigningSecretVault;
}) {
  return async function createWebhookSecret(
    accountId: string,
  ): Promise<{ secret: string; info: SecretInfo }> {
    const now = deps.clock.now();
    return deps.db.transaction().execute(async (trx) => {
      // The account lock serialises this with a rotation and with a first delivery's secret.
      await lockAccount(trx, accountId, now);
      const current = await lockCurrentSecret(trx, accountId);
      if (current) {
        if (current.revealed_at !== null)
          throw new ConflictError(
            "the signing secret was already shown once; rotate it to get a new one",
            "webhook_secret_already_revealed",
            { secret_id: current.id },
          );
        await markRevealed(trx, current.id, now);
        return {
          secret: deps.vault.open(current),
          info: { id: current.id, createdAt: current.created_at, revealed: true },
        };
      }
      const fresh = deps.vault.generate(accountId, now);
      await insertCurrentSecret(trx, { ...fresh.row, revealed_at: now });
      return { secret: fresh.secret, info: { id: fresh.row.id, createdAt: now, revealed: true } };
    });
  };
}
