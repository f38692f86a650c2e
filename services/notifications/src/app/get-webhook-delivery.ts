/** GET /webhooks/deliveries/{id}: one delivery with its attempts (the newest 100, oldest first). */
import { NotFoundError, type Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findDelivery, listAttempts } from "../db/deliveries.js";
import type { NotificationsDb, WebhookAttemptRow, WebhookDeliveryRow } from "../db/schema.js";
import { assertCanRead } from "../domain/authorization.js";

export function makeGetWebhookDelivery(deps: { db: Kysely<NotificationsDb> }) {
  return async function getWebhookDelivery(
    principal: Principal,
    deliveryId: string,
  ): Promise<{ delivery: WebhookDeliveryRow; attempts: WebhookAttemptRow[] }> {
    const delivery = await findDelivery(deps.db, deliveryId);
    if (!delivery) throw new NotFoundError("webhook delivery", deliveryId);
    assertCanRead(principal, delivery);
    return { delivery, attempts: await listAttempts(deps.db, delivery.id) };
  };
}
