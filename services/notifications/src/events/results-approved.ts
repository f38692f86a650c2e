/** petri.experiments.results_approved -> the "approved" webhook. */
import type { EventEnvelope } from "@petri/contracts/common";
import type { ResultsApproved } from "@petri/contracts/experiments";
import type { ExperimentEventFacts } from "../app/schedule-webhook-delivery.js";
import { experimentFacts, isoTime } from "./experiment-facts.js";

export function approvedFacts(envelope: EventEnvelope, event: ResultsApproved): ExperimentEventFacts {
  return experimentFacts(envelope, event.experiment, "approved", {
    approved_at: isoTime(event.experiment?.approval?.approvedAt ?? event.experiment?.completedAt),
    rating: event.rating > 0 ? event.rating : null,
    on_time: event.onTime,
  });
}
