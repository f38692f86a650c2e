export type {
  ConsumeOptions,
  ConsumerSpec,
  Delivery,
  EventBus,
  PublishAck,
  StreamSpec,
} from "./bus.js";
export {
  buildEnvelope,
  decodeEnvelope,
  decodePayload,
  encodeEnvelope,
  envelopeOccurredAt,
  envelopeVersion,
  newEventId,
  UnknownEventTypeError,
  type EnvelopeMeta,
  type EventEnvelope,
} from "./envelope.js";
export { recordEvent, type RecordEventMeta } from "./record-event.js";
export { isValidFilter, isValidSubject, subjectMatches } from "./subjects.js";
export { NatsEventBus, type NatsEventBusOptions } from "./nats-bus.js";
export { InProcessEventBus, NoStreamError, type InProcessEventBusOptions } from "./in-process-bus.js";
export { BUS_SCHEMA, busMigrations, migrateBus } from "./in-process-schema.js";
export { OutboxRelay, type OutboxRelayOptions, type OutboxRelayStats } from "./outbox-relay.js";
export {
  ConsumerRunner,
  on,
  type ConsumerRunnerOptions,
  type ConsumerRunnerStats,
  type EventContext,
  type EventHandler,
  type Subscription,
} from "./consumer-runner.js";
export type { Logger } from "./internal/async.js";
