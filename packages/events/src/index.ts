export type {
  BroadcastSpec,
  ConsumeOptions,
  ConsumerLag,
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
export {
  eventFor,
  recordEvent,
  recordEvents,
  type PendingEvent,
  type RecordEventMeta,
} from "./record-event.js";
export { createUnitOfWork, type UnitOfWork } from "./unit-of-work.js";
export { type CommittedEvents, wakeRelayAfterCommit } from "./committed-events.js";
export { isValidFilter, isValidSubject, subjectMatches } from "./subjects.js";
export { NatsEventBus, type NatsEventBusOptions } from "./nats-bus.js";
export { BusNamespace } from "./nats-namespace.js";
export { InProcessEventBus, NoStreamError, type InProcessEventBusOptions } from "./in-process-bus.js";
export { BUS_SCHEMA, busMigrations, migrateBus } from "./in-process-schema.js";
export { OutboxRelay, type OutboxRelayOptions, type OutboxRelayStats } from "./outbox-relay.js";
export { ConsumerRunner, type ConsumerRunnerOptions, type ConsumerRunnerStats } from "./consumer-runner.js";
export {
  on,
  type ConsumerSubscription,
  type EventContext,
  type EventHandler,
  type OnOptions,
  type Subscription,
} from "./event-handlers.js";
/** The structural (pino-compatible) logger the bus adapters, relay and runner take. */
export type { Logger as EventsLogger } from "./internal/async.js";
/** Reports a service's outbox, dead letters and consumer lag at scrape time (the host's runtime starts it). */
export { observeMessaging } from "./messaging-metrics.js";
export { Pruner, type PruneTarget, type PrunerOptions } from "./pruner.js";
export { messagingPruneTargets } from "./messaging-pruning.js";
export {
  DEFAULT_RETENTION,
  MIN_IDEMPOTENCY_RETENTION_MS,
  MIN_INBOX_RETENTION_MS,
  retentionConfigSchema,
  retentionFromEnv,
  type RetentionSettings,
} from "./retention.js";
export {
  createDeadLetters,
  deadLetterId,
  parseDeadLetterId,
  type DeadLetterPosition,
  type DeadLetterRow,
  type DeadLetters,
  type ListDeadLettersInput,
  type ReplayOutcome,
} from "./dead-letters.js";
export { createDeadLetterRpc, routeDeadLetters } from "./dead-letter-rpc.js";
export {
  experimentViewOf,
  experimentViewSubscription,
  findExperimentView,
  settledExperimentView,
  upsertExperimentView,
  type ExperimentView,
  type ExperimentViewTables,
  type ExperimentViewsTable,
} from "./experiment-views.js";
