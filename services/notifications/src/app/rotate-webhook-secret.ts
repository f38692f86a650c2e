/**
 * POST /webhooks/secret/rotate: a new signing secret, shown once. The previous one keeps
 * signing for SECRET_ROTATION_OVERLAP_MS (24 h): every delivery in that window carries both
 * signatures, so a receiver can switch secrets whenever it likes within the day. Rotating
 * again within a window retires the oldest secret at once (never more than two sign).
 */
import type { Clock } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { lockAccount } from "../db/accounts.js";
import { insertCurrentSecret, retireForRotation } from "../db/secrets.js";
import type { NotificationsDb } from "../db/schema.js";
import { SECRET_ROTATION_OVERLAP_MS, type SigningSecretVault } from "./signing-secrets.js";
import type { SecretInfo } from "./get-webhook-settings.js";

export function makeRotateWebhookSecret(deps: {
  db: Kysely<NotificationsDb>;
  clock: Clock;
  vault: SigningSecretVault;
}) {
  return async function rotateWebhookSecret(
    accountId: string,
  ): Promise<{ secret: string; info: SecretInfo }> {
    const now = deps.clock.now();
    const overlapUntil = new Date(now.getTime() + SECRET_ROTATION_OVERLAP_MS);
    return deps.db.transaction().execute(async (trx) => {
      await lockAccount(trx, accountId, now);
      await retireForRotation(trx, accountId, now, overlapUntil);
      const previous = await trx
        .selectFrom("webhook_secrets")
        .select("retires_at")
        .where("account_id", "=", accountId)
        .where("retires_at", "=", overlapUntil)
        .executeTakeFirst();
      const fresh = deps.vault.generate(accountId, now);
      if (!(await insertCurrentSecret(trx, { ...fresh.row, revealed_at: now })))
        throw new Error(`account ${accountId} still has a current secret after retiring it`);
      return {
        secret: fresh.secret,
        info: {
          id: fresh.row.id,
          createdAt: now,
          revealed: true,
          previousValidUntil: previous?.retires_at ?? undefined,
        },
      };
    });
  };
}
