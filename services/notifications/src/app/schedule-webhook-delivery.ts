/**
 * The consumers' effect: an experiment event the requester asked to hear about becomes a
 * delivery row, in the consumer's transaction (the inbox row and the delivery commit
 * together, so a crash can lose neither and a redelivered event adds nothing). The worker
 * is handed the delivery once that transaction committed and makes attempt 1 at once.
 *
 * The URL is checked here as far as its text allows (https, no credentials, no private or
 * internal host, no refused IP literal); a refused URL becomes a failed delivery with
 * last_error "url_not_allowed" and no attempt, since no attempt could succeed. Resolved
 * addresses are checked when the experiments service registers the URL (the same policy,
 * from @petri/service-kit) and again at connect time on every attempt; no DNS lookup runs
 * inside this transaction.
 */
import {
  type AddressAllowlist,
  type Clock,
  type Logger,
  checkWebhookUrl,
  currentTraceparent,
  newId,
} from "@petri/service-kit";
import type { OnCommit } from "@petri/db";
import type { Kysely } from "kysely";
import type { WebhookEventName } from "@petri/contracts/vocabulary";
import { shareAccount } from "../db/accounts.js";
import { insertDelivery } from "../db/deliveries.js";
import type { NotificationsDb } from "../db/schema.js";
import { URL_NOT_ALLOWED } from "../domain/attempt-outcome.js";
import { experimentLinks, serializeWebhookBody } from "../domain/payload.js";
import { webhookPreferences } from "../domain/webhook-events.js";
import type { SigningSecretVault } from "./signing-secrets.js";
import type { DueDelivery } from "../delivery/delivery-worker.js";

export interface ExperimentEventFacts {
  /** The experiments event ("evt_..."): at most one delivery per event. */
  sourceEventId: string;
  event: WebhookEventName;
  experimentId: string;
  requesterAccountId: string;
  experimentVersion: number;
  /** The normalised request, holding communication_preferences. */
  requestJson: string;
  occurredAt: Date;
  /** Status as a docs/api.md name, e.g. "pending_approval". */
  status: string;
  /** The event-specific, thin part of `data`. */
  details: Record<string, unknown>;
}

export type ScheduleOutcome = "scheduled" | "paused" | "url_not_allowed" | "not_wanted" | "duplicate";

export function makeScheduleWebhookDelivery(deps: {
  clock: Clock;
  logger: Logger;
  allowlist: AddressAllowlist;
  vault: SigningSecretVault;
  /** Hands a delivery due now to the delivery worker. */
  offer(delivery: DueDelivery): void;
}) {
  /** `afterCommit` is the consumer transaction's: a worker woken inside it would find nothing yet. */
  return async function scheduleWebhookDelivery(
    trx: Kysely<NotificationsDb>,
    facts: ExperimentEventFacts,
    afterCommit: OnCommit,
  ): Promise<ScheduleOutcome> {
    const preferences = webhookPreferences(facts.requestJson);
    if (!preferences || !preferences.events.has(facts.event)) return "not_wanted";
    const now = deps.clock.now();
    const target = checkWebhookUrl(preferences.url, deps.allowlist);
    const account = await shareAccount(trx, facts.requesterAccountId, now);
    await deps.vault.ensureCurrent(trx, facts.requesterAccountId, now);
    const payload = serializeWebhookBody({
      event: facts.event,
      experiment_id: facts.experimentId,
      timestamp: facts.occurredAt.toISOString(),
      data: {
        status: facts.status,
        version: facts.experimentVersion,
        ...facts.details,
        links: experimentLinks(facts.experimentId, facts.event),
      },
    });
    const outcome: ScheduleOutcome = !target.ok
      ? "url_not_allowed"
      : account.paused_at
        ? "paused"
        : "scheduled";
    const deliveryId = newId("msg", now);
    const hostKey = target.ok ? target.hostKey : "";
    const inserted = await insertDelivery(trx, {
      id: deliveryId,
      account_id: facts.requesterAccountId,
      experiment_id: facts.experimentId,
      event: facts.event,
      source_event_id: facts.sourceEventId,
      experiment_version: facts.experimentVersion,
      url: target.ok ? target.url : preferences.url,
      host_key: hostKey,
      payload,
      status: outcome === "scheduled" ? "pending" : outcome === "paused" ? "paused" : "failed",
      next_attempt_at: outcome === "scheduled" ? now : null,
      last_error: target.ok ? null : URL_NOT_ALLOWED,
      lease_owner: null,
      lease_until: null,
      last_attempt_at: null,
      last_response_code: null,
      last_latency_ms: null,
      delivered_at: null,
      traceparent: currentTraceparent() ?? null,
      created_at: now,
      updated_at: now,
    });
    if (!inserted) return "duplicate";
    if (!target.ok)
      deps.logger.info(
        {
          experimentId: facts.experimentId,
          event: facts.event,
          reason: target.reason,
          category: target.category,
        },
        "webhook URL refused; delivery recorded as failed",
      );
    if (outcome === "scheduled") afterCommit(() => deps.offer({ id: deliveryId, host_key: hostKey }));
    return outcome;
  };
}
