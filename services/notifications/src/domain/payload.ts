/**
 * The webhook body (docs/api.md, Events): {event, experiment_id, timestamp, data}. Payloads are
 * thin: ids, status, times and links (paths relative to the API's base URL), never results,
 * file contents or the request itself. `data.version` is the experiment's aggregate version,
 * so a receiver can order events that arrive out of order. The body is serialised once, when
 * the delivery is created, and every attempt sends those exact bytes.
 */
import type { WebhookEventName } from "@petri/contracts/vocabulary";

/** Standard Webhooks suggests staying under about 20 KB; our bodies are far smaller. */
export const MAX_PAYLOAD_BYTES = 20 * 1024;
/** Free text (an issue's description) is cut to this many characters. */
export const MAX_TEXT_CHARS = 1_000;

export interface WebhookBody {
  event: WebhookEventName;
  experiment_id: string;
  /** ISO 8601 UTC: when the event happened. */
  timestamp: string;
  data: Record<string, unknown>;
}

/** Links a receiver follows with its own credentials. */
export function experimentLinks(experimentId: string, event: WebhookEventName): Record<string, string> {
  const experiment = `/experiments/${experimentId}`;
  return event === "completed" || event === "approved" || event === "disputed"
    ? { experiment, results: `${experiment}/results` }
    : { experiment };
}

export function cutText(text: string): string {
  return text.length <= MAX_TEXT_CHARS ? text : `${text.slice(0, MAX_TEXT_CHARS - 1)}…`;
}

/** ISO text of a time, or null when there is none (so the key is always present). */
export function isoOrNull(date: Date | undefined): string | null {
  return date ? date.toISOString() : null;
}

/**
 * Serialises a body. Should event data ever grow past the cap, the event-specific fields
 * are dropped (status, version and links remain) rather than sending a fat payload.
 */
export function serializeWebhookBody(body: WebhookBody): string {
  const text = JSON.stringify(body);
  if (Buffer.byteLength(text, "utf8") <= MAX_PAYLOAD_BYTES) return text;
  const { status, version, links } = body.data;
  return JSON.stringify({ ...body, data: { status, version, links, truncated: true } });
}
