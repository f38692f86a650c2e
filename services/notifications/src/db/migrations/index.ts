import type { Migration } from "kysely";
import * as createAccountContacts from "./2026_11_21_1000_create_account_contacts.js";
import * as createWebhookDeliveries from "./2026_12_20_1000_create_webhook_deliveries.js";
import * as deadLetterReplays from "./2027_02_01_1000_dead_letter_replays.js";
import * as webhookDeliveryTraceparent from "./2027_03_01_1000_webhook_delivery_traceparent.js";

/** Every migration of the notifications schema, by name (names sort in order). */
export const notificationsMigrations: Record<string, Migration> = {
  "2026_11_21_1000_create_account_contacts": createAccountContacts,
  "2026_12_20_1000_create_webhook_deliveries": createWebhookDeliveries,
  "2027_02_01_1000_dead_letter_replays": deadLetterReplays,
  "2027_03_01_1000_webhook_delivery_traceparent": webhookDeliveryTraceparent,
};
