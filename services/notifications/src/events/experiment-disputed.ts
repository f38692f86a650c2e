/** petri.experiments.experiment_disputed -> the "disputed" webhook: the dispute's id and reason. */
import type { EventEnvelope } from "@petri/contracts/common";
import type { ExperimentDisputed } from "@petri/contracts/experiments";
import type { ExperimentEventFacts } from "../app/schedule-webhook-delivery.js";
import { experimentFacts, isoTime } from "./experiment-facts.js";

export function disputedFacts(envelope: EventEnvelope, event: ExperimentDisputed): ExperimentEventFacts {
  const dispute = event.dispute ?? event.experiment?.dispute;
  return experimentFacts(envelope, event.experiment, "disputed", {
    dispute: dispute
      ? {
          id: dispute.id,
          reason: dispute.reason,
          raised_from: dispute.raisedFrom,
          created_at: isoTime(dispute.createdAt),
        }
      : null,
  });
}
