/**
 * The webhook events of docs/api.md and who wants them. An experiment's normalised request names
 * the receiver in communication_preferences: `webhook_url` (https) and `notification_events`.
 * A request with a webhook_url and no notification_events wants every event (naming the URL
 * is the opt-in); an explicit empty list wants none.
 */
import { WEBHOOK_EVENTS, type WebhookEventName } from "@petri/contracts/vocabulary";

export function isWebhookEvent(value: string): value is WebhookEventName {
  return (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

export interface WebhookPreferences {
  url: string;
  events: ReadonlySet<WebhookEventName>;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The webhook preferences in an experiment's request JSON; undefined when it names no URL. */
export function webhookPreferences(requestJson: string): WebhookPreferences | undefined {
  let request: unknown;
  try {
    request = JSON.parse(requestJson);
  } catch {
    return undefined;
  }
  const preferences = record(record(request)?.communication_preferences);
  const url = preferences?.webhook_url;
  if (typeof url !== "string" || url.trim() === "") return undefined;
  const listed = preferences?.notification_events;
  const events = Array.isArray(listed)
    ? listed.filter((name): name is WebhookEventName => typeof name === "string" && isWebhookEvent(name))
    : WEBHOOK_EVENTS;
  return { url: url.trim(), events: new Set(events) };
}
