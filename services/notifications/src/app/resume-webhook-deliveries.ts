/**
 * POST /webhooks/resume: lifts the account's pause. Every delivery held while it was paused
 * (the one whose fifth failure paused it, and every event since) is queued again now, each
 * with a fresh cycle of five attempts and its original webhook-id. Resuming an account that
 * is not paused changes nothing.
 */
import type { Clock } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { lockAccount, unpauseAccount } from "../db/accounts.js";
import { resumePausedDeliveries } from "../db/deliveries.js";
import type { NotificationsDb } from "../db/schema.js";
import { type WebhookSettings, loadWebhookSettings } from "./get-webhook-settings.js";

export function makeResumeWebhookDeliveries(deps: {
  db: Kysely<NotificationsDb>;
  clock: Clock;
  poke(): void;
}) {
  return async function resumeWebhookDeliveries(
    accountId: string,
  ): Promise<{ settings: WebhookSettings; resumed: number }> {
    const now = deps.clock.now();
    const resumed = await deps.db.transaction().execute(async (trx) => {
      const account = await lockAccount(trx, accountId, now);
      if (account.paused_at === null) return 0;
      await unpauseAccount(trx, accountId, now);
      return resumePausedDeliveries(trx, accountId, now);
    });
    if (resumed > 0) deps.poke();
    return { settings: await loadWebhookSettings(deps.db, accountId, now), resumed };
  };
}
