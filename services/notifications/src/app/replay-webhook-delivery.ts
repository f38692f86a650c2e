/**
 * POST /webhooks/deliveries/{id}/replay: send one delivery again now, with the same
 * webhook-id and body (the receiver dedupes on the id) and a fresh cycle of five attempts.
 * Any delivery of the account may be replayed (succeeded, failed or waiting for a retry),
 * except while an attempt is in flight (409 webhook_delivery_in_flight) or while the
 * account is paused (409 invalid_state: resume sends every held delivery). A delivery whose
 * URL the policy refuses is refused again (422 invalid_webhook_url).
 */
import {
  type AddressAllowlist,
  type Clock,
  NotFoundError,
  type Principal,
  checkWebhookUrl,
} from "@petri/service-kit";
import type { Kysely } from "kysely";
import { lockAccount } from "../db/accounts.js";
import { findDelivery, lockDelivery, updateDelivery } from "../db/deliveries.js";
import type { NotificationsDb, WebhookDeliveryRow } from "../db/schema.js";
import { assertOwns } from "../domain/authorization.js";
import { InvalidWebhookUrlError, deliveriesPausedError, deliveryInFlightError } from "../domain/errors.js";

export function makeReplayWebhookDelivery(deps: {
  db: Kysely<NotificationsDb>;
  clock: Clock;
  allowlist: AddressAllowlist;
  poke(): void;
}) {
  return async function replayWebhookDelivery(
    principal: Principal,
    deliveryId: string,
  ): Promise<WebhookDeliveryRow> {
    const seen = await findDelivery(deps.db, deliveryId);
    if (!seen) throw new NotFoundError("webhook delivery", deliveryId);
    assertOwns(principal, seen);
    const target = checkWebhookUrl(seen.url, deps.allowlist);
    if (!target.ok) throw new InvalidWebhookUrlError(target, "webhook_url");
    const now = deps.clock.now();
    const replayed = await deps.db.transaction().execute(async (trx) => {
      const account = await lockAccount(trx, seen.account_id, now);
      if (account.paused_at !== null) throw deliveriesPausedError();
      const current = await lockDelivery(trx, deliveryId);
      if (!current) throw new NotFoundError("webhook delivery", deliveryId);
      if (current.lease_until !== null && current.lease_until > now) throw deliveryInFlightError(current.id);
      const patch = {
        status: "pending" as const,
        cycle: current.cycle + 1,
        cycle_trigger: "replay" as const,
        cycle_failures: 0,
        next_attempt_at: now,
        host_key: target.hostKey,
        url: target.url,
        updated_at: now,
      };
      await updateDelivery(trx, current.id, patch);
      return { ...current, ...patch };
    });
    deps.poke();
    return replayed;
  };
}
