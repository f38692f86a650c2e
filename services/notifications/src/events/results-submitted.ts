/**
 * petri.experiments.results_submitted -> the "completed" webhook (docs/api.md: data holds status
 * pending_approval and results_available true). The results themselves are read with the
 * requester's credentials at links.results; no file content travels in a webhook.
 */
import type { EventEnvelope } from "@petri/contracts/common";
import type { ResultsSubmitted } from "@petri/contracts/experiments";
import type { ExperimentEventFacts } from "../app/schedule-webhook-delivery.js";
import { experimentFacts, isoTime } from "./experiment-facts.js";

export function completedFacts(envelope: EventEnvelope, event: ResultsSubmitted): ExperimentEventFacts {
  const facts = experimentFacts(envelope, event.experiment, "completed", {
    results_available: true,
    results_submitted_at: isoTime(event.experiment?.resultsSubmittedAt),
    file_count: event.fileCount,
  });
  // The event announces the submission: pending_approval, whatever happened since.
  return { ...facts, status: "pending_approval" };
}
