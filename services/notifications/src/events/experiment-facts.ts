/**
 * What every experiment event handler reads the same way: the event's identity and the
 * experiment it carries (event-carried state: status, version, request JSON with the
 * webhook preferences, requester). Proto -> plain facts only.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { EventEnvelope } from "@petri/contracts/common";
import type { Experiment, ExperimentStatus } from "@petri/contracts/experiments";
import { envelopeOccurredAt, envelopeVersion } from "@petri/events";
import { EXPERIMENT_STATUS_NAME_BY_VALUE, type WebhookEventName } from "@petri/contracts/vocabulary";
import type { ExperimentEventFacts } from "../app/schedule-webhook-delivery.js";

/** The status name of docs/api.md ("pending_approval"); "unspecified" for an unknown value. */
export function statusName(status: ExperimentStatus): string {
  return EXPERIMENT_STATUS_NAME_BY_VALUE.get(status) ?? "unspecified";
}

export function isoTime(timestamp: Timestamp | undefined): string | null {
  return timestamp ? timestampDate(timestamp).toISOString() : null;
}

export function experimentFacts(
  envelope: EventEnvelope,
  experiment: Experiment | undefined,
  event: WebhookEventName,
  details: Record<string, unknown>,
): ExperimentEventFacts {
  if (!experiment || experiment.id === "")
    throw new Error(`${envelope.type} ${envelope.id} carries no experiment`);
  return {
    sourceEventId: envelope.id,
    event,
    experimentId: experiment.id,
    requesterAccountId: experiment.requesterAccountId,
    experimentVersion: Number(experiment.version) || envelopeVersion(envelope),
    requestJson: experiment.requestJson,
    occurredAt: envelopeOccurredAt(envelope) ?? new Date(0),
    status: statusName(experiment.status),
    details,
  };
}
