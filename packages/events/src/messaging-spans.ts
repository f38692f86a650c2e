/**
 * Spans of the event path, so that one trace runs from the request that recorded an event to
 * every consumer's handling of it: the outbox row keeps the recording span's traceparent, the
 * relay's send span continues it and becomes the message's parent (the envelope's traceparent,
 * and the W3C headers of a NATS message), and each consumer's process span continues that.
 * Names and attributes follow the messaging semantic conventions.
 */
import type { EventEnvelope } from "@petri/contracts/common";
import {
  SpanKind,
  contextFromTraceparent,
  failSpan,
  inSpan,
  traceparentOf,
  tracer,
} from "@petri/service-kit";
import { trace } from "@opentelemetry/api";
import type { EventBus, PublishAck } from "./bus.js";

/** The semantic conventions' attributes every span of one message's path shares. */
function messagingAttributes(bus: EventBus, operation: "send" | "process", envelope: EventEnvelope) {
  return {
    "messaging.system": bus.kind === "nats" ? "nats" : "petri_in_process",
    "messaging.operation.type": operation,
    "messaging.destination.name": envelope.subject,
    "messaging.message.id": envelope.id,
  };
}

/** Publishes `envelope` in a send span under the span that recorded it; the message carries the send span. */
export function publishInSpan(bus: EventBus, envelope: EventEnvelope): Promise<PublishAck> {
  const parent = contextFromTraceparent(envelope.traceparent);
  const span = tracer().startSpan(
    `send ${envelope.subject}`,
    { kind: SpanKind.PRODUCER, attributes: messagingAttributes(bus, "send", envelope) },
    parent,
  );
  const sent = {
    ...envelope,
    traceparent: traceparentOf(trace.setSpan(parent, span)) ?? envelope.traceparent,
  };
  return inSpan(span, parent, () => bus.publish(sent));
}

/** Runs a consumer's handling of one delivery in a process span under the message's send span. */
export function processInSpan<T>(
  bus: EventBus,
  consumer: string,
  envelope: EventEnvelope,
  deliveryCount: number,
  handle: () => Promise<T>,
): Promise<T> {
  const parent = contextFromTraceparent(envelope.traceparent);
  const span = tracer().startSpan(
    `process ${envelope.subject}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        ...messagingAttributes(bus, "process", envelope),
        "messaging.consumer.group.name": consumer,
        "messaging.message.delivery_count": deliveryCount,
      },
    },
    parent,
  );
  return inSpan(span, parent, handle);
}

/** Marks the active process span failed: the handler's failure is handled (retry, dead letter), not thrown. */
export function failActiveSpan(error: unknown): void {
  const span = trace.getActiveSpan();
  if (span) failSpan(span, error);
}
