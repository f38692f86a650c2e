import { type ServiceName, streamFor } from "@petri/contracts";
import { type Database, migrateToLatest, migrationStatus } from "@petri/db";
import type { Clock, Failpoints, HostedService, Logger, ReadinessCheck } from "@petri/service-kit";
import type { Kysely, Migration } from "kysely";
import type { ConnectRouter } from "@connectrpc/connect";
import {
  ConsumerRunner,
  DEFAULT_RETENTION,
  OutboxRelay,
  Pruner,
  createDeadLetters,
  messagingPruneTargets,
  observeMessaging,
  routeDeadLetters,
  type ConsumerSubscription,
  type EventBus,
  type RetentionSettings,
} from "@petri/events";
import { MIGRATIONS_CHECK } from "./await-migrations.js";

/** What the host hands to every service's composition root, in both run modes. */
export interface ServiceDeps {
  database: Database;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  failpoints: Failpoints;
  /** How long the messaging tables keep rows (default DEFAULT_RETENTION; hosts read retentionFromEnv). */
  retention?: RetentionSettings | undefined;
}

export interface ConsumerDefinition {
  /** Durable consumer name, unique across the system, e.g. "notifications-accounts". */
  name: string;
  subscriptions: ConsumerSubscription[];
  concurrency?: number;
  maxAttempts?: number;
}

export interface ServiceRuntimeOptions extends ServiceDeps {
  service: ServiceName;
  migrations: Record<string, Migration>;
  consumers?: ConsumerDefinition[];
}

/**
 * The plumbing every service shares: its schema-bound Kysely, the outbox relay for its
 * stream, its consumers, migrations and readiness. The service adds its routes.
 */
export function createServiceRuntime<DB>(options: ServiceRuntimeOptions) {
  const { service, database, bus, clock, failpoints } = options;
  const logger = options.logger.child({ service });
  const db = database.forSchema<DB>(service);
  const stream = streamFor(service);
  const relay = new OutboxRelay({ db: db as Kysely<any>, bus, stream, logger, clock, failpoints });
  const runners = consumerRunners(options, db as Kysely<any>, logger, relay);
  const retention = options.retention ?? DEFAULT_RETENTION;
  const pruner = new Pruner({
    name: `${service}-pruner`,
    clock,
    logger,
    intervalMs: retention.intervalMs,
    batchSize: retention.batchSize,
  });
  for (const target of messagingPruneTargets(db as Kysely<any>, retention)) pruner.register(target);
  const deadLetters = createDeadLetters({ service, db: db as Kysely<any>, clock, runners });
  let started = false;
  let stopObserving: (() => void) | undefined;

  const readiness = () =>
    runtimeReadiness(options, () => started && runners.every((runner) => runner.running()));

  const hosted: Omit<HostedService, "routes"> = {
    name: service,
    migrate: () => migrateToLatest(database, service, options.migrations),
    async start() {
      await bus.ensureStream(stream);
      for (const runner of runners) await runner.ensureStreams();
      relay.start();
      for (const runner of runners) runner.start();
      pruner.start();
      started = true;
      stopObserving ??= observeMessaging({
        service,
        db,
        relay,
        bus,
        consumers: (options.consumers ?? []).map((c) => ({
          name: c.name,
          streams: c.subscriptions.map((s) => s.stream),
        })),
      });
    },
    async stop() {
      started = false;
      stopObserving?.();
      stopObserving = undefined;
      await pruner.stop();
      await Promise.all(runners.map((runner) => runner.stop()));
      await relay.stop();
    },
    readiness,
  };

  return {
    db,
    relay,
    hosted,
    /** Staff listing and replay of this service's dead letters. */
    deadLetters,
    /** Serves petri.common.v1.DeadLetterService; call from the service's `routes`. */
    routeDeadLetters: (router: ConnectRouter) => routeDeadLetters(router, service, deadLetters),
    /** Deletes rows past retention; a service registers its own tables' targets with it. */
    pruner,
    retention,
    /** Wakes the relay at once instead of at its next poll (for a transaction outside a unit of work). */
    afterCommit: () => relay.poke(),
    /** The relay's hand-off for createUnitOfWork: a commit's events are published at once, from memory (D333). */
    committedEvents: relay.committedEvents,
  };
}

/** A ConsumerRunner per consumer definition; each wakes the relay when its handler recorded events. */
function consumerRunners(
  options: ServiceRuntimeOptions,
  db: Kysely<any>,
  logger: Logger,
  relay: OutboxRelay,
): ConsumerRunner[] {
  const { bus, clock, failpoints } = options;
  return (options.consumers ?? []).map(
    (consumer) =>
      new ConsumerRunner({
        db,
        bus,
        name: consumer.name,
        logger,
        clock,
        failpoints,
        subscriptions: consumer.subscriptions,
        afterEventsRecorded: relay.committedEvents,
        ...(consumer.concurrency === undefined ? {} : { concurrency: consumer.concurrency }),
        ...(consumer.maxAttempts === undefined ? {} : { maxAttempts: consumer.maxAttempts }),
      }),
  );
}

/** Ready when the database answers with the migrations at head, the bus is connected and the consumers run. */
async function runtimeReadiness(
  options: ServiceRuntimeOptions,
  consumersRunning: () => boolean,
): Promise<{ ready: boolean; checks: ReadinessCheck[] }> {
  const { database, service, bus } = options;
  const checks: ReadinessCheck[] = [];
  try {
    await database.ping();
    checks.push({ name: "database", ok: true });
    const status = await migrationStatus(database, service, options.migrations);
    checks.push({
      name: MIGRATIONS_CHECK,
      ok: status.atHead,
      ...(status.atHead ? {} : { detail: `pending: ${status.pending.join(", ")}` }),
    });
  } catch (error) {
    checks.push({ name: "database", ok: false, detail: (error as Error).message });
  }
  checks.push({ name: "bus", ok: bus.connected() });
  checks.push({ name: "consumers", ok: consumersRunning() });
  return { ready: checks.every((check) => check.ok), checks };
}
