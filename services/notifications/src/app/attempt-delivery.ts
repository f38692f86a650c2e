/**
 * One attempt of a leased delivery: sign the stored body with the account's valid secrets
 * (both during a rotation's overlap) and a fresh timestamp, POST it, record the outcome.
 * The webhook-id is the delivery id, the same on every attempt, so the only duplicates a
 * receiver can see are retries of one webhook-id: an attempt whose 2xx could not be
 * recorded (a crash right after it) is sent again after its lease expires.
 */
import {
  FAILPOINT,
  type Clock,
  type Failpoints,
  type Logger,
  SpanStatusCode,
  contextFromTraceparent,
  inSpan,
  tracer,
} from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { NotificationsDb, WebhookDeliveryRow } from "../db/schema.js";
import type { AttemptOutcome } from "../domain/attempt-outcome.js";
import { signatureHeaders } from "../domain/signing.js";
import { countWebhookAttempt } from "../delivery/webhook-metrics.js";
import type { WebhookSender } from "../delivery/webhook-sender.js";
import type { AttemptRecord, makeRecordDeliveryAttempt } from "./record-delivery-attempt.js";
import type { SigningSecretVault } from "./signing-secrets.js";

export const WEBHOOK_USER_AGENT = "Petri-Webhooks/1.0";

export function makeAttemptDelivery(deps: {
  db: Kysely<NotificationsDb>;
  clock: Clock;
  logger: Logger;
  failpoints: Failpoints;
  vault: SigningSecretVault;
  sender: WebhookSender;
  recordDeliveryAttempt: ReturnType<typeof makeRecordDeliveryAttempt>;
}) {
  async function secretsFor(accountId: string, now: Date): Promise<string[]> {
    const secrets = await deps.vault.signingSecrets(deps.db, accountId, now);
    if (secrets.length > 0) return secrets;
    // Every delivery row is written with a secret; this only repairs a hand-edited database.
    await deps.db.transaction().execute((trx) => deps.vault.ensureCurrent(trx, accountId, now));
    return deps.vault.signingSecrets(deps.db, accountId, now);
  }

  // Each attempt is a span in the trace of the event it announces; the POST under it is
  // undici's client span (and carries the trace to the receiver in its traceparent header).
  return function attemptDelivery(
    leased: WebhookDeliveryRow,
    owner: string,
  ): Promise<{ record: AttemptRecord; outcome: AttemptOutcome }> {
    const parent = contextFromTraceparent(leased.traceparent);
    const span = tracer().startSpan(
      "webhook attempt",
      {
        attributes: {
          "petri.webhook.delivery_id": leased.id,
          "petri.webhook.event": leased.event,
          "petri.webhook.host": leased.host_key,
        },
      },
      parent,
    );
    return inSpan(span, parent, async () => {
      const attempt = await attemptOnce(leased, owner);
      if (span.isRecording()) {
        span.setAttribute("petri.webhook.success", attempt.outcome.success);
        if (!attempt.outcome.success)
          span.setStatus({ code: SpanStatusCode.ERROR, message: attempt.outcome.error });
      }
      return attempt;
    });
  };

  async function attemptOnce(
    leased: WebhookDeliveryRow,
    owner: string,
  ): Promise<{ record: AttemptRecord; outcome: AttemptOutcome }> {
    const attemptedAt = deps.clock.now();
    const body = Buffer.from(leased.payload, "utf8");
    const secrets = await secretsFor(leased.account_id, attemptedAt);
    const result = await deps.sender.send({
      url: leased.url,
      body,
      headers: {
        "content-type": "application/json",
        "user-agent": WEBHOOK_USER_AGENT,
        ...signatureHeaders({ webhookId: leased.id, attemptedAt, body, secrets }),
      },
    });
    if (result.outcome.success) await deps.failpoints.hit(FAILPOINT.after2xxBeforeDeliveryRecorded);
    else
      deps.logger.info(
        {
          deliveryId: leased.id,
          hostKey: leased.host_key,
          responseCode: result.outcome.responseCode,
          error: result.outcome.error,
          cause: result.cause,
        },
        "webhook attempt failed",
      );
    const record = await deps.recordDeliveryAttempt({
      leased,
      owner,
      attemptedAt,
      outcome: result.outcome,
      latencyMs: result.latencyMs,
    });
    countWebhookAttempt(leased, attemptedAt, record);
    return { record, outcome: result.outcome };
  }
}
