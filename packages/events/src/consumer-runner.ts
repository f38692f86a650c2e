import type { Message } from "@bufbuild/protobuf";
import type { EventEnvelope } from "@petri/contracts/common";
import { FAILPOINT, FailpointError, type Clock, type Failpoints } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { Delivery, EventBus } from "./bus.js";
import type { EventHandler, Subscription } from "./event-handlers.js";
import { decodePayload, encodeEnvelope } from "./envelope.js";
import { listenForRecordedEvents } from "./record-event.js";
import { subjectMatches } from "./subjects.js";
import { errorMessage, type Logger } from "./internal/async.js";
import { consumerCounters } from "./messaging-metrics.js";
import { failActiveSpan, processInSpan } from "./messaging-spans.js";
import { type MessagingTables, type OnCommit, runThenCallbacks, transactionWithCommitHooks } from "@petri/db";
import { claimInboxRow } from "./inbox.js";
import { DeliveryHeartbeat } from "./delivery-heartbeat.js";
import { type CommittedEvents, committedEventsOf } from "./committed-events.js";

export interface ConsumerRunnerOptions {
  /** Kysely bound to the consuming service's schema (holding `inbox` and `dead_letters`). */
  db: Kysely<any>;
  bus: EventBus;
  /** Durable consumer name, "<service>--<purpose>"; also the inbox key. */
  name: string;
  logger: Logger;
  clock: Clock;
  failpoints: Failpoints;
  subscriptions: Subscription[];
  /** Deliveries of one event before it is dead-lettered (default 5). */
  maxAttempts?: number;
  /** Redelivery delay after the n-th failed attempt (default min(30 s, 500 ms * 2^(n-1))). */
  backoffMs?: (attempt: number) => number;
  /** Handlers running at once per subscription (default 4). */
  concurrency?: number;
  /** Unacknowledged deliveries come back after this long (default 30 s). */
  ackWaitMs?: number;
  /**
   * Where the events a handler's transaction recorded go after its commit (the service's outbox
   * relay hand-off, or a wake-up of the relay, so they are published at once); not called after
   * a transaction that recorded none.
   */
  afterEventsRecorded?: CommittedEvents | (() => void);
}

export interface ConsumerRunnerStats {
  /** Deliveries whose effect this runner committed. */
  applied: number;
  /** Deliveries acknowledged without a transaction: no handler for their type. */
  skipped: number;
  /** Deliveries found in the inbox already (the effect had been applied before). */
  duplicates: number;
  /** Handler failures that were scheduled for a retry. */
  retried: number;
  /** Events dead-lettered. */
  deadLettered: number;
}

const defaultBackoff = (attempt: number) => Math.min(30_000, 500 * 2 ** Math.max(0, attempt - 1));

/**
 * Runs a service's event handlers on durable consumers with an exactly-once effect: the
 * inbox row (consumer, event id) and the handler's writes commit in one transaction, the
 * ack follows the commit, and a redelivered event that is already in the inbox is only
 * acknowledged. A failing event is retried with backoff and dead-lettered after
 * maxAttempts deliveries, while other events keep flowing.
 */
export class ConsumerRunner {
  private readonly maxAttempts: number;
  private readonly backoff: (attempt: number) => number;
  private readonly concurrency: number;
  private readonly ackWaitMs: number;
  private controller: AbortController | undefined;
  private loops: Promise<void>[] = [];
  private active = 0;
  private readonly counters: ConsumerRunnerStats = {
    applied: 0,
    skipped: 0,
    duplicates: 0,
    retried: 0,
    deadLettered: 0,
  };
  private readonly db: Kysely<MessagingTables>;
  private readonly metrics: ReturnType<typeof consumerCounters>;
  /** A slow handler keeps its delivery; should a redelivery still happen, the inbox absorbs it. */
  private readonly heartbeat: DeliveryHeartbeat;

  constructor(private readonly opts: ConsumerRunnerOptions) {
    this.db = opts.db as Kysely<MessagingTables>;
    this.metrics = consumerCounters(opts.name);
    this.maxAttempts = opts.maxAttempts ?? 5;
    this.backoff = opts.backoffMs ?? defaultBackoff;
    this.concurrency = opts.concurrency ?? 4;
    this.ackWaitMs = opts.ackWaitMs ?? 30_000;
    this.heartbeat = new DeliveryHeartbeat(opts.clock, Math.max(100, Math.floor(this.ackWaitMs / 2)));
    const streams = new Set<string>();
    for (const s of opts.subscriptions) {
      if (streams.has(s.stream.name)) {
        throw new Error(
          `consumer ${opts.name}: two subscriptions on stream ${s.stream.name}; use one wildcard filter and several handlers`,
        );
      }
      streams.add(s.stream.name);
    }
  }

  /** The durable consumer name (also the inbox and dead-letter key). */
  get name(): string {
    return this.opts.name;
  }

  /** Provisions the streams this runner reads (idempotent; consume() does it too). */
  async ensureStreams(): Promise<void> {
    for (const sub of this.opts.subscriptions) await this.opts.bus.ensureStream(sub.stream);
  }

  /** Starts consuming every subscription (idempotent). */
  start(): void {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    this.heartbeat.start();
    this.loops = this.opts.subscriptions.map((sub) => {
      this.active += 1;
      return this.opts.bus
        .consume(
          {
            stream: sub.stream,
            durable: this.opts.name,
            filterSubject: sub.filterSubject,
            ackWaitMs: this.ackWaitMs,
          },
          (delivery) => this.handle(sub, delivery),
          { concurrency: this.concurrency, signal: controller.signal },
        )
        .catch((err: unknown) => {
          this.opts.logger.error(
            { err: errorMessage(err), consumer: this.opts.name, stream: sub.stream.name },
            "consumer stopped with an error",
          );
        })
        .finally(() => {
          this.active -= 1;
        });
    });
  }

  /** Stops pulling and waits for the handlers in flight. */
  async stop(): Promise<void> {
    const controller = this.controller;
    if (!controller) return;
    controller.abort();
    await Promise.allSettled(this.loops);
    await this.heartbeat.stop();
    this.loops = [];
    this.controller = undefined;
  }

  /** True while started and every subscription's consume loop is alive. */
  running(): boolean {
    return (
      this.controller !== undefined && !this.controller.signal.aborted && this.active === this.loops.length
    );
  }

  stats(): ConsumerRunnerStats {
    return { ...this.counters };
  }

  private handle(sub: Subscription, delivery: Delivery): Promise<void> {
    return this.heartbeat.keepAlive(delivery, () =>
      processInSpan(this.opts.bus, this.opts.name, delivery.envelope, delivery.deliveryCount, () =>
        this.handleDelivery(sub, delivery),
      ),
    );
  }

  private async handleDelivery(sub: Subscription, delivery: Delivery): Promise<void> {
    const { envelope } = delivery;
    const log = this.opts.logger;
    this.metrics.delivered(delivery.deliveryCount);
    const handler = sub.handlers[envelope.type];
    if (!handler) return this.skip(delivery);
    let payload: Message;
    let applies: boolean;
    try {
      payload = decodePayload(envelope);
      applies = handler.appliesTo?.(payload) ?? true;
    } catch (err) {
      await this.failed(delivery, err);
      return;
    }
    if (!applies) return this.skip(delivery);
    let outcome: "applied" | "duplicate";
    try {
      outcome = handler.idempotent
        ? await this.applyIdempotent(handler, envelope, payload)
        : await this.applyOnce(handler, envelope, payload);
    } catch (err) {
      if (err instanceof FailpointError) {
        log.warn({ failpoint: err.failpoint, eventId: envelope.id }, "delivery abandoned by failpoint");
        return;
      }
      await this.failed(delivery, err);
      return;
    }
    if (outcome === "applied") this.counters.applied += 1;
    else this.counters.duplicates += 1;
    this.metrics.finished(outcome);
    try {
      await this.opts.failpoints.hit(FAILPOINT.afterEffectBeforeAck);
    } catch (err) {
      if (err instanceof FailpointError) {
        log.warn({ failpoint: err.failpoint, eventId: envelope.id }, "delivery abandoned by failpoint");
        return;
      }
      throw err;
    }
    await this.acknowledge(delivery);
  }

  /**
   * The exactly-once step: the inbox row and the handler's effect in one transaction;
   * "duplicate" (nothing done) when the inbox already holds the event.
   */
  private applyOnce(
    handler: EventHandler,
    envelope: EventEnvelope,
    payload: Message,
  ): Promise<"applied" | "duplicate"> {
    return transactionWithCommitHooks(
      this.db,
      async (trx, afterCommit) => {
        const inserted = await claimInboxRow.executeTakeFirst(trx, {
          consumer: this.opts.name,
          event_id: envelope.id,
          processed_at: this.opts.clock.now(),
        });
        if (!inserted) return "duplicate" as const;
        await this.opts.failpoints
          .hit(`${FAILPOINT.consumerHandlerFails}:${this.opts.name}`)
          .catch((err: unknown) => {
            throw err instanceof FailpointError ? new Error(`handler failed: ${err.message}`) : err;
          });
        await handler({
          trx: this.watchRecordedEvents(trx as Kysely<any>, afterCommit),
          envelope,
          payload,
          afterCommit,
        });
        return "applied" as const;
      },
      this.callbackFailed(envelope),
    );
  }

  private callbackFailed(envelope: EventEnvelope): (err: unknown) => void {
    return (err) =>
      this.opts.logger.error(
        { err: errorMessage(err), eventId: envelope.id },
        "after-commit callback failed",
      );
  }

  /**
   * An idempotent handler's effect, without inbox row or transaction: applying it again is
   * harmless by the handler's own guard, so the round trips of exactly-once buy nothing.
   */
  private applyIdempotent(
    handler: EventHandler,
    envelope: EventEnvelope,
    payload: Message,
  ): Promise<"applied"> {
    return runThenCallbacks(async (afterCommit) => {
      await handler({ trx: this.db, envelope, payload, afterCommit });
      return "applied" as const;
    }, this.callbackFailed(envelope));
  }

  /**
   * Hands a stored (dead-lettered) event to its handler again, outside the bus, with the same
   * inbox dedupe: "duplicate" when it was applied already, "skipped" when no handler of this
   * consumer takes it. A failing handler throws (nothing is committed).
   */
  async replay(envelope: EventEnvelope): Promise<"applied" | "duplicate" | "skipped"> {
    const sub = this.opts.subscriptions.find((candidate) =>
      subjectMatches(candidate.filterSubject, envelope.subject),
    );
    const handler = sub?.handlers[envelope.type];
    if (!handler) return "skipped";
    const payload = decodePayload(envelope);
    if (!(handler.appliesTo?.(payload) ?? true)) return "skipped";
    const outcome = await this.applyOnce(handler, envelope, payload);
    if (outcome === "applied") this.counters.applied += 1;
    else this.counters.duplicates += 1;
    return outcome;
  }

  /** The handler's transaction, whose recorded events go to `afterEventsRecorded` after its commit. */
  private watchRecordedEvents(trx: Kysely<any>, afterCommit: OnCommit): Kysely<any> {
    const after = this.opts.afterEventsRecorded;
    if (!after) return trx;
    const handOff = committedEventsOf(after);
    const recorded: EventEnvelope[] = [];
    return listenForRecordedEvents(
      trx,
      (envelopes) => {
        if (recorded.length === 0) afterCommit(() => handOff.committed(recorded));
        recorded.push(...envelopes);
      },
      () => handOff.holdUntil(),
    );
  }

  /** An event without effect here: no inbox row (nothing to make exactly once), only the ack. */
  private async skip(delivery: Delivery): Promise<void> {
    this.counters.skipped += 1;
    this.metrics.finished("skipped");
    await this.acknowledge(delivery);
  }

  /** Acknowledges a delivery whose effect is committed (or that has none). */
  private async acknowledge(delivery: Delivery): Promise<void> {
    const { envelope } = delivery;
    try {
      await delivery.ack();
    } catch (err) {
      // The effect is committed (a redelivery only finds the inbox row) or there is none.
      this.opts.logger.warn(
        { err: errorMessage(err), eventId: envelope.id },
        "ack failed; the event will be redelivered",
      );
    }
  }

  private async failed(delivery: Delivery, err: unknown): Promise<void> {
    failActiveSpan(err);
    const { envelope, deliveryCount } = delivery;
    const reason = errorMessage(err);
    const log = this.opts.logger;
    if (deliveryCount >= this.maxAttempts) {
      try {
        await this.db
          .insertInto("dead_letters")
          .values({
            consumer: this.opts.name,
            event_id: envelope.id,
            subject: envelope.subject,
            type: envelope.type,
            envelope: encodeEnvelope(envelope),
            reason: reason.slice(0, 4_000),
            attempts: deliveryCount,
            failed_at: this.opts.clock.now(),
          })
          .onConflict((oc) =>
            oc.columns(["consumer", "event_id"]).doUpdateSet({
              reason: reason.slice(0, 4_000),
              attempts: deliveryCount,
              failed_at: this.opts.clock.now(),
            }),
          )
          .execute();
      } catch (dlqErr) {
        log.error(
          { err: errorMessage(dlqErr), eventId: envelope.id },
          "could not write the dead letter; retrying",
        );
        await delivery.nak(this.backoff(deliveryCount)).catch(() => undefined);
        return;
      }
      this.counters.deadLettered += 1;
      this.metrics.finished("dead_lettered");
      log.error(
        {
          eventId: envelope.id,
          type: envelope.type,
          attempts: deliveryCount,
          reason,
          consumer: this.opts.name,
        },
        "event dead-lettered",
      );
      await delivery.term(reason).catch((termErr: unknown) => {
        log.warn({ err: errorMessage(termErr), eventId: envelope.id }, "term failed");
      });
      return;
    }
    this.counters.retried += 1;
    this.metrics.finished("retried");
    log.warn(
      { eventId: envelope.id, type: envelope.type, attempt: deliveryCount, reason, consumer: this.opts.name },
      "event handler failed; will retry",
    );
    await delivery.nak(this.backoff(deliveryCount)).catch((nakErr: unknown) => {
      log.warn({ err: errorMessage(nakErr), eventId: envelope.id }, "nak failed; redelivery after ack wait");
    });
  }
}
