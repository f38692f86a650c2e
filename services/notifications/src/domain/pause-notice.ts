/**
 * The one e-mail an account gets when its webhook deliveries are paused (docs/api.md, Events:
 * after 5 failures delivery is paused and an e-mail notification is sent to the account).
 * It names what failed and how to resume; it never quotes a receiver's response.
 */
import { ATTEMPTS_PER_CYCLE } from "./retry-schedule.js";

export const PAUSE_NOTICE_KIND = "webhooks_paused";

export interface PauseFacts {
  deliveryId: string;
  event: string;
  experimentId: string;
  url: string;
  /** The public class of the last failure, e.g. "http_status" (with the code) or "connection_failed". */
  lastError: string;
  lastResponseCode: number | null;
  pausedAt: Date;
}

export function pauseNotice(facts: PauseFacts): { subject: string; text: string } {
  const failure =
    facts.lastResponseCode !== null && facts.lastResponseCode > 0
      ? `the receiver answered HTTP ${facts.lastResponseCode}`
      : facts.lastError === "connection_failed"
        ? "no answer arrived within 5 seconds (or the connection failed)"
        : facts.lastError;
  return {
    subject: "Petri: webhook deliveries paused",
    text: [
      "Your webhook deliveries are paused.",
      "",
      `The "${facts.event}" event of experiment ${facts.experimentId} could not be delivered to`,
      `${facts.url} after ${ATTEMPTS_PER_CYCLE} attempts (last: ${failure}).`,
      `Delivery id (webhook-id): ${facts.deliveryId}. Paused at ${facts.pausedAt.toISOString()}.`,
      "",
      "While paused, new events are recorded but not sent. When your receiver is fixed, resume",
      "(POST /webhooks/resume): every held event is sent again with the same webhook-id.",
      "The delivery log (GET /webhooks/deliveries) lists each attempt.",
    ].join("\n"),
  };
}
