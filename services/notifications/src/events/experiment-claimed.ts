/** petri.experiments.experiment_claimed -> the "claimed" webhook: who claimed it and by when it is due. */
import type { EventEnvelope } from "@petri/contracts/common";
import type { ExperimentClaimed } from "@petri/contracts/experiments";
import type { ExperimentEventFacts } from "../app/schedule-webhook-delivery.js";
import { experimentFacts, isoTime } from "./experiment-facts.js";

export function claimedFacts(envelope: EventEnvelope, event: ExperimentClaimed): ExperimentEventFacts {
  const operator = event.experiment?.operator;
  return experimentFacts(envelope, event.experiment, "claimed", {
    operator: operator ? { id: operator.operatorId, lab_name: operator.labName } : null,
    claimed_at: isoTime(operator?.claimedAt),
    deadline: isoTime(operator?.deadline),
  });
}
