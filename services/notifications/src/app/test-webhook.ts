/**
 * POST /webhooks/test {url, event_type}: one signed sample delivery, sent at once, under the
 * same URL rules (checked at registration and at connect time) and with the account's
 * signing secrets, so a receiver can test its verification. The answer says whether a 2xx
 * came within 5 seconds, the status code and the time taken; nothing is stored and nothing
 * is retried. Each account may test TEST_CALLS_PER_MINUTE times per minute (429 beyond),
 * refused URLs included, so the endpoint cannot be used to scan.
 */
import { type Clock, RateLimitedError, ValidationError, newId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { WEBHOOK_EVENTS } from "@petri/contracts/vocabulary";
import type { NotificationsDb } from "../db/schema.js";
import { drawTestWindow } from "../db/test-windows.js";
import type { WebhookSender } from "../delivery/webhook-sender.js";
import { signatureHeaders } from "../domain/signing.js";
import { sampleWebhookBody } from "../domain/test-sample.js";
import { isWebhookEvent } from "../domain/webhook-events.js";
import { WEBHOOK_USER_AGENT } from "./attempt-delivery.js";
import type { makeCheckWebhookUrl } from "./check-webhook-url.js";
import type { SigningSecretVault } from "./signing-secrets.js";

export const TEST_CALLS_PER_MINUTE = 10;

export interface TestWebhookResult {
  success: boolean;
  responseCode: number;
  responseTimeMs: number;
  webhookId: string;
  error: string;
}

export function makeTestWebhook(deps: {
  db: Kysely<NotificationsDb>;
  clock: Clock;
  vault: SigningSecretVault;
  sender: WebhookSender;
  checkUrl: ReturnType<typeof makeCheckWebhookUrl>;
}) {
  return async function testWebhook(
    accountId: string,
    input: { url: string; eventType: string },
  ): Promise<TestWebhookResult> {
    const event = input.eventType.trim();
    if (!isWebhookEvent(event))
      throw new ValidationError("the event type is invalid", [
        {
          field: "event_type",
          code: "invalid_value",
          message: `event_type must be one of ${WEBHOOK_EVENTS.join(", ")}`,
        },
      ]);
    const now = deps.clock.now();
    const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const used = await deps.db.transaction().execute(async (trx) => {
      const count = await drawTestWindow(trx, accountId, windowStart);
      if (count <= TEST_CALLS_PER_MINUTE) await deps.vault.ensureCurrent(trx, accountId, now);
      return count;
    });
    if (used > TEST_CALLS_PER_MINUTE)
      throw new RateLimitedError(`at most ${TEST_CALLS_PER_MINUTE} webhook tests per minute`, {
        limit: TEST_CALLS_PER_MINUTE,
        reset: Math.floor(windowStart.getTime() / 1000) + 60,
      });
    const target = await deps.checkUrl(input.url);
    const webhookId = newId("msg", now);
    const body = Buffer.from(JSON.stringify(sampleWebhookBody(event, now)), "utf8");
    const secrets = await deps.vault.signingSecrets(deps.db, accountId, now);
    const result = await deps.sender.send({
      url: target.url,
      body,
      headers: {
        "content-type": "application/json",
        "user-agent": WEBHOOK_USER_AGENT,
        ...signatureHeaders({ webhookId, attemptedAt: now, body, secrets }),
      },
    });
    return {
      success: result.outcome.success,
      responseCode: result.outcome.responseCode,
      responseTimeMs: result.latencyMs,
      webhookId,
      error: result.outcome.success ? "" : result.outcome.error,
    };
  };
}
