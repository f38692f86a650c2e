/**
 * Webhook delivery metrics: attempts by what they led to, the wait from an event's delivery
 * being created to its first attempt, and the queue (pending deliveries, and those already
 * due), read at scrape time through the worker's partial index.
 */
import {
  type Clock,
  SLOW_SECONDS_BUCKETS,
  counter,
  histogram,
  sampledGauge,
  sharedRead,
} from "@petri/service-kit";
import { type Kysely, sql } from "kysely";
import type { AttemptRecord } from "../app/record-delivery-attempt.js";
import type { NotificationsDb, WebhookDeliveryRow } from "../db/schema.js";

const attempts = counter({
  name: "petri_webhook_attempts_total",
  help: "Webhook delivery attempts by outcome (succeeded, retry_scheduled, held, paused_account, superseded)",
  labelNames: ["outcome"],
});
const firstAttemptDelay = histogram({
  name: "petri_webhook_first_attempt_delay_seconds",
  help: "Time from a webhook delivery's creation to its first attempt",
  buckets: SLOW_SECONDS_BUCKETS,
});
const queue = sampledGauge({
  name: "petri_webhook_queue_deliveries",
  help: "Webhook deliveries waiting: pending (all), due (pending and past their next attempt time)",
  labelNames: ["state"],
});

export function countWebhookAttempt(
  leased: WebhookDeliveryRow,
  attemptedAt: Date,
  record: AttemptRecord,
): void {
  attempts.labels(record).inc();
  if (leased.attempt_count === 0)
    firstAttemptDelay.observe(Math.max(0, attemptedAt.getTime() - leased.created_at.getTime()) / 1000);
}

/** Reports the queue at every scrape until the returned function is called. */
export function observeWebhookQueue(db: Kysely<NotificationsDb>, clock: Clock): () => void {
  const read = sharedRead(async () => {
    const now = clock.now();
    const row = await db
      .selectFrom("webhook_deliveries")
      .select([
        sql<string | number>`count(*)`.as("pending"),
        sql<string | number>`count(*) filter (where next_attempt_at <= ${now})`.as("due"),
      ])
      .where("status", "=", "pending")
      .executeTakeFirst();
    return { pending: Number(row?.pending ?? 0), due: Number(row?.due ?? 0) };
  });
  return queue.addSource(async () => {
    const { pending, due } = await read();
    return [
      { labels: { state: "pending" }, value: pending },
      { labels: { state: "due" }, value: due },
    ];
  });
}
