/** Domain rows -> petri.notifications.v1 messages. */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type SentMail,
  SentMailSchema,
  type WebhookAttempt,
  WebhookAttemptSchema,
  type WebhookDelivery,
  WebhookDeliverySchema,
  type WebhookSecretInfo,
  WebhookSecretInfoSchema,
  type WebhookSettings,
  WebhookSettingsSchema,
} from "@petri/contracts/notifications";
import type { SecretInfo, WebhookSettings as Settings } from "../app/get-webhook-settings.js";
import type { SentMailRow, WebhookAttemptRow, WebhookDeliveryRow } from "../db/schema.js";

const time = (date: Date | null | undefined) => (date ? timestampFromDate(date) : undefined);

export function attemptMessage(row: WebhookAttemptRow): WebhookAttempt {
  return create(WebhookAttemptSchema, {
    number: row.number,
    trigger: row.trigger,
    attemptedAt: time(row.attempted_at),
    responseCode: row.response_code ?? 0,
    latencyMs: row.latency_ms,
    outcome: row.succeeded ? "succeeded" : "failed",
    error: row.error ?? "",
  });
}

export function deliveryMessage(
  row: WebhookDeliveryRow,
  attempts: readonly WebhookAttemptRow[] = [],
): WebhookDelivery {
  return create(WebhookDeliverySchema, {
    id: row.id,
    accountId: row.account_id,
    experimentId: row.experiment_id,
    event: row.event,
    url: row.url,
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.status === "pending" ? time(row.next_attempt_at) : undefined,
    lastAttemptAt: time(row.last_attempt_at),
    lastResponseCode: row.last_response_code ?? 0,
    lastLatencyMs: row.last_latency_ms ?? 0,
    lastError: row.last_error ?? "",
    createdAt: time(row.created_at),
    deliveredAt: time(row.delivered_at),
    experimentVersion: BigInt(row.experiment_version),
    attempts: attempts.map(attemptMessage),
  });
}

export function secretInfoMessage(info: SecretInfo): WebhookSecretInfo {
  return create(WebhookSecretInfoSchema, {
    id: info.id,
    createdAt: time(info.createdAt),
    revealed: info.revealed,
    previousValidUntil: time(info.previousValidUntil),
  });
}

export function settingsMessage(settings: Settings): WebhookSettings {
  return create(WebhookSettingsSchema, {
    secret: settings.secret ? secretInfoMessage(settings.secret) : undefined,
    paused: settings.paused,
    pausedAt: time(settings.pausedAt),
    pausedByDeliveryId: settings.pausedByDeliveryId ?? "",
    pausedDeliveries: BigInt(settings.pausedDeliveries),
  });
}

export function sentMailMessage(row: SentMailRow): SentMail {
  return create(SentMailSchema, {
    id: row.id,
    accountId: row.account_id,
    to: row.to_address,
    subject: row.subject,
    text: row.text,
    kind: row.kind,
    transport: row.transport,
    messageId: row.message_id ?? "",
    sentAt: time(row.sent_at),
  });
}
