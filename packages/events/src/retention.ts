/**
 * How long the messaging tables keep rows before the pruner deletes them (README "Retention").
 * The same settings in both run modes; each service's runtime prunes its own schema.
 */
import { loadConfig } from "@petri/service-kit";
import { z } from "zod";

const HOUR_MS = 60 * 60 * 1000;

export interface RetentionSettings {
  /** Inbox rows (events a consumer applied), by processed_at. */
  inboxMs: number;
  /** Outbox rows the relay has published, by sent_at (unsent rows are never deleted). */
  sentOutboxMs: number;
  /** Dead letters, by failed_at. */
  deadLettersMs: number;
  /** Completed idempotency records, by completed_at. */
  idempotencyMs: number;
  /** Webhook delivery attempts (notifications), by attempted_at. */
  webhookAttemptsMs: number;
  /** How often a pass runs, on the service clock. */
  intervalMs: number;
  /** Largest number of rows one DELETE removes, so no statement holds its locks long. */
  batchSize: number;
}

/**
 * The longest time after an event was applied that the bus may still hand it to the same
 * consumer again. Neither bus bounds it by a timer: the streams keep messages without a
 * maximum age, an unacknowledged delivery comes back after ack_wait (30 s) whenever the
 * consumer next pulls, and a copy the relay publishes again after its lease (30 s) once the
 * 2-minute duplicate window has passed sits behind the consumer's backlog. What bounds it is
 * how far a consumer may fall behind (stopped or lagging) before an operator steps in; we take
 * a week, far above any backlog the lag alerts let stand, and the inbox must keep its rows at
 * least that long or an event could be applied twice.
 */
export const MIN_INBOX_RETENTION_MS = 7 * 24 * HOUR_MS;
/** The spec's replay window for an Idempotency-Key: 24 hours after the request completed. */
export const MIN_IDEMPOTENCY_RETENTION_MS = 24 * HOUR_MS;

export const DEFAULT_RETENTION: RetentionSettings = {
  inboxMs: 14 * 24 * HOUR_MS,
  sentOutboxMs: 3 * 24 * HOUR_MS,
  deadLettersMs: 30 * 24 * HOUR_MS,
  idempotencyMs: 24 * HOUR_MS,
  webhookAttemptsMs: 30 * 24 * HOUR_MS,
  intervalMs: 10 * 60 * 1000,
  batchSize: 1000,
};

function hours(defaultMs: number, minMs: number, why: string) {
  const minHours = minMs / HOUR_MS;
  return z.coerce
    .number({ error: "must be a number of hours" })
    .int({ error: "must be a whole number of hours" })
    .min(minHours, { error: `must be at least ${minHours} hours (${why})` })
    .default(defaultMs / HOUR_MS)
    .transform((value) => value * HOUR_MS);
}

/** The environment variables, in hours (README "Retention" lists them). */
export function retentionConfigSchema() {
  return z
    .object({
      PETRI_RETENTION_INBOX_HOURS: hours(
        DEFAULT_RETENTION.inboxMs,
        MIN_INBOX_RETENTION_MS,
        "an inbox row must outlive any redelivery of its event, or the event could be applied twice",
      ),
      PETRI_RETENTION_SENT_OUTBOX_HOURS: hours(DEFAULT_RETENTION.sentOutboxMs, HOUR_MS, "kept for tracing"),
      PETRI_RETENTION_DEAD_LETTERS_HOURS: hours(
        DEFAULT_RETENTION.deadLettersMs,
        24 * HOUR_MS,
        "staff need time to look at and replay them",
      ),
      PETRI_RETENTION_IDEMPOTENCY_HOURS: hours(
        DEFAULT_RETENTION.idempotencyMs,
        MIN_IDEMPOTENCY_RETENTION_MS,
        "a retried request is replayed for 24 hours after it completed",
      ),
      PETRI_RETENTION_WEBHOOK_ATTEMPTS_HOURS: hours(
        DEFAULT_RETENTION.webhookAttemptsMs,
        24 * HOUR_MS,
        "delivery history shown to accounts",
      ),
      PETRI_RETENTION_INTERVAL_MINUTES: z.coerce
        .number({ error: "must be a number of minutes" })
        .int()
        .min(1)
        .max(24 * 60)
        .default(DEFAULT_RETENTION.intervalMs / 60_000),
      PETRI_RETENTION_BATCH_SIZE: z.coerce
        .number({ error: "must be a number of rows" })
        .int()
        .min(1)
        .max(100_000)
        .default(DEFAULT_RETENTION.batchSize),
    })
    .transform((env): RetentionSettings => ({
      inboxMs: env.PETRI_RETENTION_INBOX_HOURS,
      sentOutboxMs: env.PETRI_RETENTION_SENT_OUTBOX_HOURS,
      deadLettersMs: env.PETRI_RETENTION_DEAD_LETTERS_HOURS,
      idempotencyMs: env.PETRI_RETENTION_IDEMPOTENCY_HOURS,
      webhookAttemptsMs: env.PETRI_RETENTION_WEBHOOK_ATTEMPTS_HOURS,
      intervalMs: env.PETRI_RETENTION_INTERVAL_MINUTES * 60_000,
      batchSize: env.PETRI_RETENTION_BATCH_SIZE,
    }));
}

/** Reads the retention settings; throws ConfigError (naming the variable) for bad values. */
export function retentionFromEnv(env: Record<string, string | undefined> = process.env): RetentionSettings {
  return loadConfig(retentionConfigSchema(), env);
}
