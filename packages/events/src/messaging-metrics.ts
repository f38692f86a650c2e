/**
 * Metrics of a service's messaging: its outbox (backlog and the age of the oldest unsent
 * event, read at scrape time with one query), its consumers' lag (the bus's own count, at
 * scrape time), redeliveries and dead letters (counted as they happen).
 */
import { type Kysely, sql } from "kysely";
import type { MessagingTables } from "@petri/db";
import { BoundChildren, counter, sampledGauge, sharedRead } from "@petri/service-kit";
import type { EventBus, StreamSpec } from "./bus.js";
import type { OutboxRelay } from "./outbox-relay.js";

const outboxBacklog = sampledGauge({
  name: "petri_outbox_unsent_events",
  help: "Events in a service's outbox not yet published",
  labelNames: ["service"],
});
const outboxOldestAge = sampledGauge({
  name: "petri_outbox_oldest_unsent_age_seconds",
  help: "Age of the oldest unpublished event in a service's outbox (0 when none)",
  labelNames: ["service"],
});
const deadLetterRows = sampledGauge({
  name: "petri_dead_letters",
  help: "Events in a service's dead_letters table (failed maxAttempts times; kept for inspection)",
  labelNames: ["service"],
});
const consumerPending = sampledGauge({
  name: "petri_consumer_pending_events",
  help: "Events on a durable consumer's stream not delivered to it yet (the bus's count)",
  labelNames: ["consumer", "stream"],
});
const consumerUnacknowledged = sampledGauge({
  name: "petri_consumer_unacknowledged_events",
  help: "Events delivered to a durable consumer and not acknowledged yet",
  labelNames: ["consumer", "stream"],
});

const redeliveries = counter({
  name: "petri_consumer_redeliveries_total",
  help: "Deliveries of an event a consumer had been handed before (a retry after a failure or a lost ack)",
  labelNames: ["consumer"],
});
const deadLettered = counter({
  name: "petri_consumer_dead_lettered_total",
  help: "Events a consumer dead-lettered after its last failed attempt",
  labelNames: ["consumer"],
});
const handled = counter({
  name: "petri_consumer_deliveries_total",
  help: "Deliveries a consumer finished, by outcome (applied, duplicate, skipped, retried, dead_lettered)",
  labelNames: ["consumer", "outcome"],
});
const handledChildren = new BoundChildren<{ inc(): void }>();

export type DeliveryOutcome = "applied" | "duplicate" | "skipped" | "retried" | "dead_lettered";

/** The counters one consumer records into, bound to its name once. */
export function consumerCounters(consumer: string) {
  const redelivered = redeliveries.labels(consumer);
  const lettered = deadLettered.labels(consumer);
  return {
    delivered(deliveryCount: number): void {
      if (deliveryCount > 1) redelivered.inc();
    },
    finished(outcome: DeliveryOutcome): void {
      handledChildren.get(`${consumer} ${outcome}`, () => handled.labels(consumer, outcome)).inc();
      if (outcome === "dead_lettered") lettered.inc();
    },
  };
}

/**
 * Starts reporting a service's outbox and dead letters, and its consumers' lag, at every
 * scrape; returns the function that stops it (the service's stop()).
 */
export function observeMessaging(options: {
  service: string;
  db: Kysely<any>;
  relay: OutboxRelay;
  bus: EventBus;
  consumers: ReadonlyArray<{ name: string; streams: readonly StreamSpec[] }>;
}): () => void {
  const { service, relay, bus } = options;
  const db = options.db as Kysely<MessagingTables>;
  const outbox = sharedRead(() => relay.lag());
  const removers = [
    outboxBacklog.addSource(async () => [{ labels: { service }, value: (await outbox()).unsent }]),
    outboxOldestAge.addSource(async () => [
      { labels: { service }, value: (await outbox()).oldestAgeMs / 1000 },
    ]),
    deadLetterRows.addSource(async () => {
      const row = await db
        .selectFrom("dead_letters")
        .select(sql<string | number>`count(*)`.as("n"))
        .executeTakeFirst();
      return [{ labels: { service }, value: Number(row?.n ?? 0) }];
    }),
  ];
  const consumerLag = bus.consumerLag?.bind(bus);
  if (consumerLag) {
    const pairs = options.consumers.flatMap((c) => c.streams.map((stream) => ({ consumer: c.name, stream })));
    const lags = sharedRead(() =>
      Promise.all(
        pairs.map(async ({ consumer, stream }) => ({
          labels: { consumer, stream: stream.name },
          lag: await consumerLag(stream, consumer).catch(() => undefined),
        })),
      ),
    );
    removers.push(
      consumerPending.addSource(async () =>
        (await lags()).flatMap(({ labels, lag }) => (lag ? [{ labels, value: lag.pending }] : [])),
      ),
      consumerUnacknowledged.addSource(async () =>
        (await lags()).flatMap(({ labels, lag }) => (lag ? [{ labels, value: lag.unacknowledged }] : [])),
      ),
    );
  }
  return () => {
    for (const remove of removers) remove();
  };
}
