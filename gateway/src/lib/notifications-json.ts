/**
 * Notifications messages -> the public JSON: webhook signing secrets, webhook settings, the
 * delivery log and its attempts, the webhook test and the sent-mail log. Pure functions with
 * a fixed key order; timestamps ISO 8601, int64 counters as numbers. An empty string or an
 * unset time of the proto (its "none") is null, except response codes, which stay integers
 * with 0 meaning "no response was received" (as docs/api.md's webhook test answers them).
 */
import type {
  SentMail,
  TestWebhookResponse,
  WebhookAttempt,
  WebhookDelivery,
  WebhookSecretInfo,
  WebhookSettings,
} from "@petri/contracts/notifications";
import { isoOrNull } from "./timestamps.js";

const textOrNull = (text: string) => (text === "" ? null : text);

/** A signing secret's metadata (never the secret itself). */
export function signingSecretJson(info: WebhookSecretInfo | undefined) {
  if (!info) throw new Error("the notifications service returned no secret metadata");
  return {
    secret_id: info.id,
    created_at: isoOrNull(info.createdAt),
    revealed: info.revealed,
    previous_valid_until: isoOrNull(info.previousValidUntil),
  };
}

/** POST /webhooks/secret and /webhooks/secret/rotate: the secret, this one time, with its metadata. */
export function revealedSecretJson(answer: { secret: string; info?: WebhookSecretInfo }) {
  if (answer.secret === "") throw new Error("the notifications service returned an empty secret");
  const { secret_id, ...info } = signingSecretJson(answer.info);
  return { secret_id, secret: answer.secret, ...info };
}

/** GET /webhooks/settings (and the settings part of POST /webhooks/resume). */
export function webhookSettingsJson(settings: WebhookSettings | undefined) {
  if (!settings) throw new Error("the notifications service returned no webhook settings");
  return {
    paused: settings.paused,
    paused_at: isoOrNull(settings.pausedAt),
    paused_by_delivery_id: textOrNull(settings.pausedByDeliveryId),
    paused_deliveries: Number(settings.pausedDeliveries),
    signing_secret: settings.secret ? signingSecretJson(settings.secret) : null,
  };
}

/** POST /webhooks/resume: the settings after the resume and how many deliveries it queued. */
export function resumedJson(answer: { settings?: WebhookSettings; resumedDeliveries: bigint }) {
  return { ...webhookSettingsJson(answer.settings), resumed_deliveries: Number(answer.resumedDeliveries) };
}

/** A delivery of the log, without its attempts (the list items). */
export function webhookDeliveryJson(delivery: WebhookDelivery | undefined) {
  if (!delivery) throw new Error("the notifications service returned no webhook delivery");
  // Before its first attempt a delivery has no last attempt: no code, latency or error.
  const attempted = delivery.attemptCount > 0;
  return {
    delivery_id: delivery.id,
    // The same id, under the name of the header receivers see it in.
    webhook_id: delivery.id,
    account_id: delivery.accountId,
    experiment_id: delivery.experimentId,
    event: delivery.event,
    experiment_version: Number(delivery.experimentVersion),
    url: delivery.url,
    status: delivery.status,
    attempt_count: delivery.attemptCount,
    next_attempt_at: isoOrNull(delivery.nextAttemptAt),
    last_attempt_at: isoOrNull(delivery.lastAttemptAt),
    last_response_code: attempted ? delivery.lastResponseCode : null,
    last_latency_ms: attempted ? delivery.lastLatencyMs : null,
    last_error: textOrNull(delivery.lastError),
    created_at: isoOrNull(delivery.createdAt),
    delivered_at: isoOrNull(delivery.deliveredAt),
  };
}

function attemptJson(attempt: WebhookAttempt) {
  return {
    number: attempt.number,
    trigger: attempt.trigger,
    attempted_at: isoOrNull(attempt.attemptedAt),
    outcome: attempt.outcome,
    response_code: attempt.responseCode,
    latency_ms: attempt.latencyMs,
    error: textOrNull(attempt.error),
  };
}

/** GET /webhooks/deliveries/{delivery_id}: the delivery with its attempts, oldest first. */
export function webhookDeliveryDetailJson(delivery: WebhookDelivery | undefined) {
  return { ...webhookDeliveryJson(delivery), attempts: (delivery?.attempts ?? []).map(attemptJson) };
}

/** POST /webhooks/test: docs/api.md's three fields, then the sample's webhook-id and the failure class. */
export function webhookTestJson(result: TestWebhookResponse) {
  return {
    success: result.success,
    response_code: result.responseCode,
    response_time_ms: result.responseTimeMs,
    webhook_id: result.webhookId,
    error: textOrNull(result.error),
  };
}

/** An item of GET /admin/notifications/mail. */
export function sentMailJson(mail: SentMail) {
  return {
    mail_id: mail.id,
    account_id: mail.accountId,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    kind: mail.kind,
    transport: mail.transport,
    message_id: textOrNull(mail.messageId),
    sent_at: isoOrNull(mail.sentAt),
  };
}
