import type { EventEnvelope } from "@petri/contracts/common";
import type { Database } from "@petri/db";
import { type Clock, SafetyPoll } from "@petri/service-kit";
import type {
  BroadcastSpec,
  ConsumeOptions,
  ConsumerSpec,
  Delivery,
  ConsumerLag,
  EventBus,
  PublishAck,
  StreamSpec,
} from "./bus.js";
import { decodeEnvelope, encodeEnvelope } from "./envelope.js";
import { InProcessDelivery } from "./in-process-delivery.js";
import { migrateBus } from "./in-process-schema.js";
import { type Claimed, InProcessBusStore } from "./in-process-store.js";
import { errorMessage, Semaphore, WakeSignal, type Logger } from "./internal/async.js";
import { earlier } from "./internal/times.js";
import { isValidFilter, isValidSubject, subjectMatches } from "./subjects.js";

export interface InProcessEventBusOptions {
  db: Database;
  clock: Clock;
  logger: Logger;
  /**
   * Longest idle wait of a consumer loop before it looks at the tables again (default 60 s;
   * it starts at 1 s after activity and backs off while idle). Publishes in this process
   * and handlers freeing a slot that messages may wait for wake consumers at once and
   * redeliveries are timed, so the poll
   * only finds messages published by another process on the same database, which the
   * standalone mode (one process) never does.
   */
  pollMs?: number;
}

const DEFAULT_ACK_WAIT_MS = 30_000;
const DEFAULT_POLL_MS = 60_000;

export class NoStreamError extends Error {
  constructor(readonly subject: string) {
    super(`no stream holds subject "${subject}"`);
    this.name = "NoStreamError";
  }
}

/**
 * EventBus for the standalone mode, with the semantics of the JetStream adapter: streams
 * own subjects, publishes are deduplicated by envelope id, durable consumers see every
 * matching message in stream order, unacknowledged deliveries come back after ackWait,
 * nak(delay) redelivers after the delay, term() never redelivers. Everything lives in the
 * `petri_bus` schema of the given database, so it survives a restart of the process.
 *
 * Every database access is one short statement or transaction: with PGlite (one
 * connection) nothing is held while a handler runs.
 */
export class InProcessEventBus implements EventBus {
  readonly kind = "in-process" as const;
  private readonly store: InProcessBusStore;
  private streams = new Map<string, string[]>();
  private readonly wakers = new Map<string, Set<WakeSignal>>();
  private readonly lifetime = new AbortController();
  private readonly loops = new Set<Promise<void>>();
  private readonly subscribers = new Set<{ filter: string; handler: (envelope: EventEnvelope) => void }>();
  private closed = false;
  private readonly pollMs: number;

  private constructor(private readonly opts: InProcessEventBusOptions) {
    this.store = new InProcessBusStore(opts.db);
    this.pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
  }

  static async create(opts: InProcessEventBusOptions): Promise<InProcessEventBus> {
    await migrateBus(opts.db);
    const bus = new InProcessEventBus(opts);
    bus.streams = await bus.store.streams();
    return bus;
  }

  connected(): boolean {
    return !this.closed;
  }

  async ensureStream(spec: StreamSpec): Promise<void> {
    this.assertOpen();
    if (spec.subjects.length === 0 || !spec.subjects.every(isValidFilter)) {
      throw new Error(`stream ${spec.name}: invalid subjects ${JSON.stringify(spec.subjects)}`);
    }
    const subjects = [...spec.subjects].sort();
    const cached = this.streams.get(spec.name);
    if (cached && JSON.stringify([...cached].sort()) === JSON.stringify(subjects)) return;
    await this.store.saveStream(spec.name, subjects, this.opts.clock.now());
    this.streams.set(spec.name, subjects);
  }

  private async streamFor(subject: string): Promise<string> {
    const find = () => {
      for (const [name, subjects] of this.streams) {
        if (subjects.some((filter) => subjectMatches(filter, subject))) return name;
      }
      return undefined;
    };
    let stream = find();
    if (!stream) {
      this.streams = await this.store.streams();
      stream = find();
    }
    if (!stream) throw new NoStreamError(subject);
    return stream;
  }

  async publish(envelope: EventEnvelope): Promise<PublishAck> {
    this.assertOpen();
    if (!isValidSubject(envelope.subject)) throw new Error(`invalid subject "${envelope.subject}"`);
    if (!envelope.id) throw new Error("envelope.id is required (it is the dedupe key)");
    const stream = await this.streamFor(envelope.subject);
    const appended = await this.store.append(
      stream,
      { subject: envelope.subject, id: envelope.id, bytes: encodeEnvelope(envelope) },
      this.opts.clock.now(),
    );
    if ("noStream" in appended) throw new NoStreamError(envelope.subject);
    if (appended.duplicate) return { stream, seq: appended.seq, duplicate: true };
    this.wake(stream);
    this.broadcast(envelope);
    return { stream, seq: appended.seq, duplicate: false };
  }

  /**
   * Subscribers of this process only: a publish from another process on the same database
   * reaches them not at all (the standalone mode runs one process).
   */
  async subscribe(
    spec: BroadcastSpec,
    handler: (envelope: EventEnvelope) => void,
    signal: AbortSignal,
  ): Promise<void> {
    this.assertOpen();
    if (!isValidFilter(spec.filterSubject)) throw new Error(`invalid filter "${spec.filterSubject}"`);
    await this.ensureStream(spec.stream);
    if (signal.aborted) return;
    const subscriber = { filter: spec.filterSubject, handler };
    this.subscribers.add(subscriber);
    const stop = () => this.subscribers.delete(subscriber);
    signal.addEventListener("abort", stop, { once: true });
    this.lifetime.signal.addEventListener("abort", stop, { once: true });
  }

  private broadcast(envelope: EventEnvelope): void {
    for (const subscriber of this.subscribers) {
      if (!subjectMatches(subscriber.filter, envelope.subject)) continue;
      try {
        subscriber.handler(envelope);
      } catch (err) {
        this.opts.logger.error({ err, eventId: envelope.id }, "broadcast handler failed");
      }
    }
  }

  private wake(stream: string): void {
    for (const w of this.wakers.get(stream) ?? []) w.notify();
  }

  async consume(
    spec: ConsumerSpec,
    handler: (delivery: Delivery) => Promise<void>,
    options: ConsumeOptions,
  ): Promise<void> {
    this.assertOpen();
    const loop = this.runConsumer(spec, handler, options);
    this.loops.add(loop);
    try {
      await loop;
    } finally {
      this.loops.delete(loop);
    }
  }

  private async runConsumer(
    spec: ConsumerSpec,
    handler: (delivery: Delivery) => Promise<void>,
    options: ConsumeOptions,
  ): Promise<void> {
    const consumer: RunningConsumer = {
      spec,
      handler,
      ackWaitMs: spec.ackWaitMs ?? DEFAULT_ACK_WAIT_MS,
      slots: new Semaphore(options.concurrency),
      wake: new WakeSignal(),
      waitingForSlots: false,
      nextDueAt: undefined,
    };
    const safetyPoll = new SafetyPoll({ maxMs: this.pollMs });
    const stop = AbortSignal.any([options.signal, this.lifetime.signal]);
    const onStop = () => consumer.wake.notify();
    stop.addEventListener("abort", onStop, { once: true });
    let wakers = this.wakers.get(spec.stream.name);
    if (!wakers) this.wakers.set(spec.stream.name, (wakers = new Set()));
    wakers.add(consumer.wake);

    let provisioned = false;
    let failures = 0;
    try {
      while (!stop.aborted) {
        try {
          if (!provisioned) {
            await this.ensureStream(spec.stream);
            await this.store.saveConsumer(spec, consumer.ackWaitMs, this.opts.clock.now());
            provisioned = true;
          }
          const { free, claimed } = await this.claimAndDispatch(consumer);
          failures = 0;
          if (stop.aborted) break;
          if (claimed > 0) safetyPoll.activity();
          if (free > 0 && claimed === free) continue; // more may be waiting
          if (await this.waitForWork(consumer, safetyPoll.next(), stop)) safetyPoll.activity();
        } catch (err) {
          if (stop.aborted) break;
          failures += 1;
          this.opts.logger.warn(
            { err: errorMessage(err), stream: spec.stream.name, durable: spec.durable },
            "in-process consumer loop failed; retrying",
          );
          provisioned = false;
          await this.opts.clock.sleep(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)), stop);
        }
      }
    } finally {
      wakers.delete(consumer.wake);
      stop.removeEventListener("abort", onStop);
      await consumer.slots.idle();
    }
  }

  /** Claims what the free slots can take and starts a handler for each; returns both counts. */
  private async claimAndDispatch(consumer: RunningConsumer): Promise<{ free: number; claimed: number }> {
    const { spec, ackWaitMs, slots, handler, wake } = consumer;
    const free = slots.available;
    consumer.waitingForSlots = true;
    if (free <= 0) return { free, claimed: 0 };
    const known = consumer.nextDueAt;
    const now = this.opts.clock.now();
    // Ask the database when the loop does not know, or when what it knew has passed (it was
    // acknowledged early, or it is due and this claim takes it): else a stale time would keep
    // the loop looking again at once.
    const ask = known === undefined || known <= now;
    const claim = await this.store.claim(spec, ackWaitMs, free, now, ask);
    const { claimed } = claim;
    consumer.nextDueAt = claim.nextDueKnown ? claim.nextDueAt : earlier(known, claim.nextDueAt);
    consumer.waitingForSlots = claimed.length === free;
    if (claimed.length === 0) return { free, claimed: 0 };
    for (const c of claimed) {
      await slots.acquire();
      const delivery = this.toDelivery(consumer, c, c.envelope);
      if (!delivery) {
        slots.release();
        continue;
      }
      handler(delivery)
        .catch((err: unknown) => {
          this.opts.logger.error(
            { err, eventId: delivery.envelope.id, durable: spec.durable },
            "event handler failed",
          );
        })
        .finally(() => {
          slots.release();
          if (consumer.waitingForSlots) wake.notify();
        });
    }
    return { free, claimed: claimed.length };
  }

  /**
   * Waits until a redelivery falls due, a wake-up (publish, freed slot, nak, stop) or the
   * safety poll's `pollMs`; true when woken.
   */
  private async waitForWork(consumer: RunningConsumer, pollMs: number, stop: AbortSignal): Promise<boolean> {
    let waitMs = pollMs;
    const due = consumer.nextDueAt;
    if (consumer.slots.available > 0 && due !== undefined)
      waitMs = Math.min(waitMs, due.getTime() - this.opts.clock.now().getTime());
    if (waitMs <= 0) {
      // Due now but nothing was claimable (claimed elsewhere): yield briefly in real time.
      await new Promise((r) => setTimeout(r, 5));
      return false;
    }
    return this.idle(consumer.wake, waitMs, stop);
  }

  /** Waits for a wake-up (publish, freed slot, nak, stop) or waitMs of the injected clock; true when woken. */
  private async idle(wake: WakeSignal, waitMs: number, stop: AbortSignal): Promise<boolean> {
    const cancelSleep = new AbortController();
    const woken = wake.wait();
    let wokenUp = false;
    try {
      await Promise.race([
        woken.promise.then(() => {
          wokenUp = true;
        }),
        this.opts.clock.sleep(waitMs, AbortSignal.any([cancelSleep.signal, stop])),
      ]);
    } finally {
      woken.cancel();
      cancelSleep.abort();
    }
    return wokenUp;
  }

  private toDelivery(consumer: RunningConsumer, claimed: Claimed, bytes: Uint8Array): Delivery | undefined {
    const { spec, ackWaitMs, wake } = consumer;
    let envelope: EventEnvelope;
    try {
      envelope = decodeEnvelope(bytes);
    } catch (err) {
      this.opts.logger.error(
        { err: errorMessage(err), stream: spec.stream.name, seq: claimed.seq },
        "undecodable message terminated",
      );
      void this.store.settle(spec, claimed.seq, "term").catch(() => undefined);
      return undefined;
    }
    return new InProcessDelivery(envelope, claimed.deliveryCount, {
      ack: () => this.store.settle(spec, claimed.seq, "ack"),
      term: () => this.store.settle(spec, claimed.seq, "term"),
      reschedule: async (delayMs) => {
        const at = new Date(this.opts.clock.now().getTime() + delayMs);
        await this.store.reschedule(spec, claimed, at);
        consumer.nextDueAt = earlier(consumer.nextDueAt, at);
      },
      ackWaitMs,
      wake,
    });
  }

  async consumerLag(stream: StreamSpec, durable: string): Promise<ConsumerLag> {
    return this.store.consumerLag(stream.name, durable);
  }

  /** Stream state for tests and diagnostics (same shape as NatsEventBus.streamInfo). */
  async streamInfo(name: string): Promise<{ messages: number; lastSeq: number }> {
    return this.store.streamInfo(name);
  }

  /**
   * Deletes messages older than `olderThanMs` that every durable consumer of their stream
   * has moved past (acknowledged or terminated). Returns how many were deleted. The dedupe
   * of a deleted message's id ends with it, like JetStream's duplicate window.
   */
  async purgeDelivered(olderThanMs: number): Promise<number> {
    const cutoff = new Date(this.opts.clock.now().getTime() - olderThanMs);
    let deleted = 0;
    for (const stream of this.streams.keys()) deleted += await this.store.purgeDelivered(stream, cutoff);
    return deleted;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("the in-process event bus is closed");
  }

  /** Stops every consume loop (in-flight handlers finish); the database stays open. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.lifetime.abort();
    await Promise.allSettled([...this.loops]);
  }
}

/** A consume loop's fixed parts. */
interface RunningConsumer {
  spec: ConsumerSpec;
  handler: (delivery: Delivery) => Promise<void>;
  ackWaitMs: number;
  slots: Semaphore;
  wake: WakeSignal;
  /**
   * The last claim filled every free slot, so messages may be waiting for one: a handler that
   * ends wakes the loop. Otherwise it claimed all there was, and new messages wake it anyway.
   */
  waitingForSlots: boolean;
  /**
   * When the earliest pending delivery falls due, as far as the loop knows: the database's
   * answer from the last claim that looked it up (one that took nothing, or was asked because
   * this was unknown), lowered by the deadlines of later claims and by naks. An ack only makes
   * the true time later, and an early look is harmless (D362).
   */
  nextDueAt: Date | undefined;
}
