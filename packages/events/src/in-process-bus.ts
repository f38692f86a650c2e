import type { EventEnvelope } from "@petri/contracts/common";
import type { Database } from "@petri/db";
import { type Clock, SafetyPoll } from "@petri/service-kit";
import type { Kysely } from "kysely";
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
import { BUS_SCHEMA, migrateBus, type BusTables } from "./in-process-schema.js";
import { errorMessage, Semaphore, WakeSignal, type Logger } from "./internal/async.js";
import { isValidFilter, isValidSubject, subjectMatches } from "./subjects.js";

export interface InProcessEventBusOptions {
  db: Database;
  clock: Clock;
  logger: Logger;
  /**
   * Longest idle wait of a consumer loop before it looks at the tables again (default 60 s;
   * it starts at 1 s after activity and backs off while idle). Publishes in this process
   * and settled deliveries wake consumers at once and redeliveries are timed, so the poll
   * only finds messages published by another process on the same database, which the
   * standalone mode (one process) never does.
   */
  pollMs?: number;
}

const DEFAULT_ACK_WAIT_MS = 30_000;
const DEFAULT_POLL_MS = 60_000;
const SCAN_BATCH = 256;

export class NoStreamError extends Error {
  constructor(readonly subject: string) {
    super(`no stream holds subject "${subject}"`);
    this.name = "NoStreamError";
  }
}

class DuplicateMessage {
  constructor(readonly seq: number) {}
}

interface Claimed {
  seq: number;
  deliveryCount: number;
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
  private readonly db: Kysely<BusTables>;
  private readonly streams = new Map<string, string[]>();
  private readonly wakers = new Map<string, Set<WakeSignal>>();
  private readonly lifetime = new AbortController();
  private readonly loops = new Set<Promise<void>>();
  private readonly subscribers = new Set<{ filter: string; handler: (envelope: EventEnvelope) => void }>();
  private closed = false;
  private readonly pollMs: number;

  private constructor(private readonly opts: InProcessEventBusOptions) {
    this.db = opts.db.forSchema<BusTables>(BUS_SCHEMA);
    this.pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
  }

  static async create(opts: InProcessEventBusOptions): Promise<InProcessEventBus> {
    await migrateBus(opts.db);
    const bus = new InProcessEventBus(opts);
    await bus.loadStreams();
    return bus;
  }

  private async loadStreams(): Promise<void> {
    const rows = await this.db.selectFrom("streams").select(["name", "subjects"]).execute();
    for (const row of rows) this.streams.set(row.name, JSON.parse(row.subjects) as string[]);
  }

  connected(): boolean {
    return !this.closed;
  }

  async ensureStream(spec: StreamSpec): Promise<void> {
    this.assertOpen();
    if (spec.subjects.length === 0 || !spec.subjects.every(isValidFilter)) {
      throw new Error(`stream ${spec.name}: invalid subjects ${JSON.stringify(spec.subjects)}`);
    }
    const subjects = JSON.stringify([...spec.subjects].sort());
    const cached = this.streams.get(spec.name);
    if (cached && JSON.stringify([...cached].sort()) === subjects) return;
    await this.db
      .insertInto("streams")
      .values({ name: spec.name, subjects, last_seq: 0, created_at: this.opts.clock.now() })
      .onConflict((oc) => oc.column("name").doUpdateSet({ subjects }))
      .execute();
    this.streams.set(spec.name, JSON.parse(subjects) as string[]);
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
      await this.loadStreams();
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
    const bytes = encodeEnvelope(envelope);
    const publishedAt = this.opts.clock.now();
    try {
      const seq = await this.db.transaction().execute(async (trx) => {
        // The row lock on the stream serialises publishes to it, so the dedupe check
        // below cannot race another publish of the same id.
        const bumped = await trx
          .updateTable("streams")
          .set((eb) => ({ last_seq: eb("last_seq", "+", 1) }))
          .where("name", "=", stream)
          .returning("last_seq")
          .executeTakeFirst();
        if (!bumped) throw new NoStreamError(envelope.subject);
        const existing = await trx
          .selectFrom("messages")
          .select("seq")
          .where("stream", "=", stream)
          .where("msg_id", "=", envelope.id)
          .executeTakeFirst();
        if (existing) throw new DuplicateMessage(Number(existing.seq)); // rolls the bump back
        const next = Number(bumped.last_seq);
        await trx
          .insertInto("messages")
          .values({
            stream,
            seq: next,
            subject: envelope.subject,
            msg_id: envelope.id,
            envelope: bytes,
            published_at: publishedAt,
          })
          .execute();
        return next;
      });
      this.wake(stream);
      this.broadcast(envelope);
      return { stream, seq, duplicate: false };
    } catch (err) {
      if (err instanceof DuplicateMessage) return { stream, seq: err.seq, duplicate: true };
      throw err;
    }
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

  private async ensureConsumer(spec: ConsumerSpec, ackWaitMs: number): Promise<void> {
    if (!isValidFilter(spec.filterSubject)) throw new Error(`invalid filter subject "${spec.filterSubject}"`);
    await this.db
      .insertInto("consumers")
      .values({
        stream: spec.stream.name,
        durable: spec.durable,
        filter_subject: spec.filterSubject,
        ack_wait_ms: ackWaitMs,
        cursor: 0,
        created_at: this.opts.clock.now(),
      })
      .onConflict((oc) =>
        oc
          .columns(["stream", "durable"])
          .doUpdateSet({ filter_subject: spec.filterSubject, ack_wait_ms: ackWaitMs }),
      )
      .execute();
  }

  /** Claims up to `max` deliveries: due redeliveries first, then new matching messages. */
  private async claim(spec: ConsumerSpec, ackWaitMs: number, max: number): Promise<Claimed[]> {
    const now = this.opts.clock.now();
    const deadline = new Date(now.getTime() + ackWaitMs);
    const stream = spec.stream.name;
    const durable = spec.durable;
    return this.db.transaction().execute(async (trx) => {
      const consumer = await trx
        .selectFrom("consumers")
        .select(["cursor", "filter_subject"])
        .where("stream", "=", stream)
        .where("durable", "=", durable)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const claimed: Claimed[] = [];
      const due = await trx
        .selectFrom("deliveries")
        .select(["seq", "delivery_count"])
        .where("stream", "=", stream)
        .where("durable", "=", durable)
        .where("state", "=", "pending")
        .where("next_delivery_at", "<=", now)
        .orderBy("seq")
        .limit(max)
        .execute();
      if (due.length > 0) {
        await trx
          .updateTable("deliveries")
          .set((eb) => ({ delivery_count: eb("delivery_count", "+", 1), next_delivery_at: deadline }))
          .where("stream", "=", stream)
          .where("durable", "=", durable)
          .where(
            "seq",
            "in",
            due.map((d) => Number(d.seq)),
          )
          .execute();
        for (const d of due)
          claimed.push({ seq: Number(d.seq), deliveryCount: Number(d.delivery_count) + 1 });
      }
      let cursor = Number(consumer.cursor);
      const startCursor = cursor;
      const fresh: number[] = [];
      scan: while (claimed.length + fresh.length < max) {
        const rows = await trx
          .selectFrom("messages")
          .select(["seq", "subject"])
          .where("stream", "=", stream)
          .where("seq", ">", cursor)
          .orderBy("seq")
          .limit(SCAN_BATCH)
          .execute();
        for (const row of rows) {
          cursor = Number(row.seq);
          if (subjectMatches(consumer.filter_subject, row.subject)) {
            fresh.push(cursor);
            if (claimed.length + fresh.length >= max) break scan;
          }
        }
        if (rows.length < SCAN_BATCH) break;
      }
      if (fresh.length > 0) {
        await trx
          .insertInto("deliveries")
          .values(
            fresh.map((seq) => ({
              stream,
              durable,
              seq,
              delivery_count: 1,
              next_delivery_at: deadline,
              state: "pending",
            })),
          )
          .execute();
        for (const seq of fresh) claimed.push({ seq, deliveryCount: 1 });
      }
      if (cursor !== startCursor) {
        await trx
          .updateTable("consumers")
          .set({ cursor })
          .where("stream", "=", stream)
          .where("durable", "=", durable)
          .execute();
      }
      return claimed.sort((a, b) => a.seq - b.seq);
    });
  }

  /** Milliseconds until the earliest pending redelivery of this consumer (undefined: none). */
  private async nextDueIn(spec: ConsumerSpec): Promise<number | undefined> {
    const row = await this.db
      .selectFrom("deliveries")
      .select((eb) => eb.fn.min("next_delivery_at").as("next"))
      .where("stream", "=", spec.stream.name)
      .where("durable", "=", spec.durable)
      .where("state", "=", "pending")
      .executeTakeFirst();
    if (!row?.next) return undefined;
    return new Date(row.next as Date | string).getTime() - this.opts.clock.now().getTime();
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
    const ackWaitMs = spec.ackWaitMs ?? DEFAULT_ACK_WAIT_MS;
    const log = this.opts.logger;
    const clock = this.opts.clock;
    const slots = new Semaphore(options.concurrency);
    const wake = new WakeSignal();
    const safetyPoll = new SafetyPoll({ maxMs: this.pollMs });
    const stop = AbortSignal.any([options.signal, this.lifetime.signal]);
    const onStop = () => wake.notify();
    stop.addEventListener("abort", onStop, { once: true });
    let wakers = this.wakers.get(spec.stream.name);
    if (!wakers) this.wakers.set(spec.stream.name, (wakers = new Set()));
    wakers.add(wake);

    let provisioned = false;
    let failures = 0;
    try {
      while (!stop.aborted) {
        try {
          if (!provisioned) {
            await this.ensureStream(spec.stream);
            await this.ensureConsumer(spec, ackWaitMs);
            provisioned = true;
          }
          const free = slots.available;
          let claimed: Claimed[] = [];
          if (free > 0) {
            claimed = await this.claim(spec, ackWaitMs, free);
            if (claimed.length > 0) {
              const envelopes = await this.loadEnvelopes(
                spec.stream.name,
                claimed.map((c) => c.seq),
              );
              for (const c of claimed) {
                await slots.acquire();
                const bytes = envelopes.get(c.seq);
                const delivery = bytes && this.toDelivery(spec, ackWaitMs, c, bytes, wake);
                if (!delivery) {
                  slots.release();
                  continue;
                }
                handler(delivery)
                  .catch((err: unknown) => {
                    log.error(
                      { err, eventId: delivery.envelope.id, durable: spec.durable },
                      "event handler failed",
                    );
                  })
                  .finally(() => {
                    slots.release();
                    wake.notify();
                  });
              }
            }
          }
          failures = 0;
          if (stop.aborted) break;
          if (claimed.length > 0) safetyPoll.activity();
          if (free > 0 && claimed.length === free) continue; // more may be waiting
          let waitMs = safetyPoll.next();
          if (slots.available > 0) {
            const due = await this.nextDueIn(spec);
            if (due !== undefined) waitMs = Math.min(waitMs, due);
          }
          if (waitMs <= 0) {
            // Due now but nothing was claimable (claimed elsewhere): yield briefly in real time.
            await new Promise((r) => setTimeout(r, 5));
            continue;
          }
          if (await this.idle(wake, waitMs, stop)) safetyPoll.activity();
        } catch (err) {
          if (stop.aborted) break;
          failures += 1;
          log.warn(
            { err: errorMessage(err), stream: spec.stream.name, durable: spec.durable },
            "in-process consumer loop failed; retrying",
          );
          provisioned = false;
          await clock.sleep(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)), stop);
        }
      }
    } finally {
      wakers.delete(wake);
      stop.removeEventListener("abort", onStop);
      await slots.idle();
    }
  }

  /** Waits for a wake-up (publish, settled delivery, stop) or waitMs of the injected clock; true when woken. */
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

  private async loadEnvelopes(stream: string, seqs: number[]): Promise<Map<number, Uint8Array>> {
    const rows = await this.db
      .selectFrom("messages")
      .select(["seq", "envelope"])
      .where("stream", "=", stream)
      .where("seq", "in", seqs)
      .execute();
    return new Map(rows.map((r) => [Number(r.seq), r.envelope]));
  }

  private toDelivery(
    spec: ConsumerSpec,
    ackWaitMs: number,
    claimed: Claimed,
    bytes: Uint8Array,
    wake: WakeSignal,
  ): Delivery | undefined {
    let envelope: EventEnvelope;
    try {
      envelope = decodeEnvelope(bytes);
    } catch (err) {
      this.opts.logger.error(
        { err: errorMessage(err), stream: spec.stream.name, seq: claimed.seq },
        "undecodable message terminated",
      );
      void this.settle(spec, claimed, "term").catch(() => undefined);
      return undefined;
    }
    return new InProcessDelivery(envelope, claimed.deliveryCount, {
      ack: () => this.settle(spec, claimed, "ack"),
      term: () => this.settle(spec, claimed, "term"),
      reschedule: (delayMs) => this.reschedule(spec, claimed, delayMs),
      ackWaitMs,
      wake,
    });
  }

  private async settle(spec: ConsumerSpec, claimed: Claimed, how: "ack" | "term"): Promise<void> {
    if (how === "term") {
      await this.db
        .updateTable("deliveries")
        .set({ state: "termed" })
        .where("stream", "=", spec.stream.name)
        .where("durable", "=", spec.durable)
        .where("seq", "=", claimed.seq)
        .where("state", "=", "pending")
        .execute();
      return;
    }
    // An acknowledged delivery leaves no row: below the cursor and without a row = done.
    // (A late ack of an earlier delivery also counts, as on JetStream.)
    await this.db
      .deleteFrom("deliveries")
      .where("stream", "=", spec.stream.name)
      .where("durable", "=", spec.durable)
      .where("seq", "=", claimed.seq)
      .where("state", "=", "pending")
      .execute();
  }

  /** Moves the redelivery time of this delivery (only while it is still this delivery). */
  private async reschedule(spec: ConsumerSpec, claimed: Claimed, delayMs: number): Promise<void> {
    await this.db
      .updateTable("deliveries")
      .set({ next_delivery_at: new Date(this.opts.clock.now().getTime() + delayMs) })
      .where("stream", "=", spec.stream.name)
      .where("durable", "=", spec.durable)
      .where("seq", "=", claimed.seq)
      .where("state", "=", "pending")
      .where("delivery_count", "=", claimed.deliveryCount)
      .execute();
  }

  /**
   * Messages past the consumer's cursor (its filter is applied when they are claimed, so a
   * filtered consumer's count includes messages it will skip) and its deliveries awaiting an ack.
   */
  async consumerLag(stream: StreamSpec, durable: string): Promise<ConsumerLag> {
    const row = await this.db
      .selectFrom("consumers")
      .innerJoin("streams", "streams.name", "consumers.stream")
      .select((eb) => [
        "consumers.cursor",
        "streams.last_seq",
        eb
          .selectFrom("deliveries")
          .select((d) => d.fn.countAll().as("n"))
          .whereRef("deliveries.stream", "=", "consumers.stream")
          .whereRef("deliveries.durable", "=", "consumers.durable")
          .where("deliveries.state", "=", "pending")
          .as("unacknowledged"),
      ])
      .where("consumers.stream", "=", stream.name)
      .where("consumers.durable", "=", durable)
      .executeTakeFirst();
    if (!row) return { pending: 0, unacknowledged: 0 };
    return {
      pending: Math.max(0, Number(row.last_seq) - Number(row.cursor)),
      unacknowledged: Number(row.unacknowledged ?? 0),
    };
  }

  /** Stream state for tests and diagnostics (same shape as NatsEventBus.streamInfo). */
  async streamInfo(name: string): Promise<{ messages: number; lastSeq: number }> {
    const row = await this.db
      .selectFrom("streams")
      .select("last_seq")
      .where("name", "=", name)
      .executeTakeFirstOrThrow();
    const count = await this.db
      .selectFrom("messages")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("stream", "=", name)
      .executeTakeFirstOrThrow();
    return { messages: Number(count.n), lastSeq: Number(row.last_seq) };
  }

  /**
   * Deletes messages older than `olderThanMs` that every durable consumer of their stream
   * has moved past (acknowledged or terminated). Returns how many were deleted. The dedupe
   * of a deleted message's id ends with it, like JetStream's duplicate window.
   */
  async purgeDelivered(olderThanMs: number): Promise<number> {
    const cutoff = new Date(this.opts.clock.now().getTime() - olderThanMs);
    let deleted = 0;
    for (const stream of this.streams.keys()) {
      const floor = await this.db
        .selectFrom("consumers")
        .select((eb) => eb.fn.min("cursor").as("cursor"))
        .where("stream", "=", stream)
        .executeTakeFirst();
      const maxSeq = floor?.cursor === null || floor?.cursor === undefined ? undefined : Number(floor.cursor);
      let q = this.db
        .deleteFrom("messages")
        .where("stream", "=", stream)
        .where("published_at", "<", cutoff)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom("deliveries")
                .select("deliveries.seq")
                .whereRef("deliveries.stream", "=", "messages.stream")
                .whereRef("deliveries.seq", "=", "messages.seq")
                .where("deliveries.state", "=", "pending"),
            ),
          ),
        );
      if (maxSeq !== undefined) q = q.where("seq", "<=", maxSeq);
      const result = await q.executeTakeFirst();
      deleted += Number(result.numDeletedRows);
      await this.db
        .deleteFrom("deliveries")
        .where("stream", "=", stream)
        .where("state", "=", "termed")
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom("messages")
                .select("messages.seq")
                .whereRef("messages.stream", "=", "deliveries.stream")
                .whereRef("messages.seq", "=", "deliveries.seq"),
            ),
          ),
        )
        .execute();
    }
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

class InProcessDelivery implements Delivery {
  private settled = false;

  constructor(
    readonly envelope: EventEnvelope,
    readonly deliveryCount: number,
    private readonly ops: {
      ack(): Promise<void>;
      term(): Promise<void>;
      reschedule(delayMs: number): Promise<void>;
      ackWaitMs: number;
      wake: WakeSignal;
    },
  ) {}

  async ack(): Promise<void> {
    if (this.settled) return;
    await this.ops.ack();
    this.settled = true;
  }

  async nak(delayMs = 0): Promise<void> {
    if (this.settled) return;
    await this.ops.reschedule(Math.max(0, delayMs));
    this.settled = true;
    this.ops.wake.notify(); // the consumer loop recomputes its next wake-up
  }

  async term(): Promise<void> {
    if (this.settled) return;
    await this.ops.term();
    this.settled = true;
  }

  async working(): Promise<void> {
    if (this.settled) return;
    await this.ops.reschedule(this.ops.ackWaitMs);
  }
}
