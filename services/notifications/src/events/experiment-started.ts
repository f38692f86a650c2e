/** petri.experiments.experiment_started -> the "started" webhook. */
import type { EventEnvelope } from "@petri/contracts/common";
import type { ExperimentStarted } from "@petri/contracts/experiments";
import type { ExperimentEventFacts } from "../app/schedule-webhook-delivery.js";
import { experimentFacts, isoTime } from "./experiment-facts.js";

export function startedFacts(envelope: EventEnvelope, event: ExperimentStarted): ExperimentEventFacts {
  return experimentFacts(envelope, event.experiment, "started", {
    started_at: isoTime(event.experiment?.startedAt),
  });
}
