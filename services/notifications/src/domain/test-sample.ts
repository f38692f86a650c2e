/**
 * The sample event POST /webhooks/test sends: shaped like a real delivery of that event
 * (same envelope, same signatures), marked `data.test: true`, about an experiment id that
 * cannot exist.
 */
import type { WebhookEventName } from "@petri/contracts/vocabulary";
import { experimentLinks } from "./payload.js";

export const TEST_EXPERIMENT_ID = "exp_00000000000000000000000000";

const SAMPLE_STATUS: Record<WebhookEventName, string> = {
  claimed: "claimed",
  started: "in_progress",
  completed: "pending_approval",
  issue: "in_progress",
  approved: "completed",
  disputed: "disputed",
};

export function sampleWebhookBody(event: WebhookEventName, now: Date) {
  return {
    event,
    experiment_id: TEST_EXPERIMENT_ID,
    timestamp: now.toISOString(),
    data: {
      test: true,
      status: SAMPLE_STATUS[event],
      version: 0,
      ...(event === "completed" ? { results_available: true } : {}),
      links: experimentLinks(TEST_EXPERIMENT_ID, event),
    },
  };
}
