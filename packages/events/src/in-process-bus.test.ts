import { events } from "@petri/contracts";
import { createDatabase, type Database } from "@petri/db";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FakeClock } from "../test/support/testkit.js";
import { delay, eventually, testLogger } from "../test/support/wait.js";
import type { Delivery, StreamSpec } from "./bus.js";
import { buildEnvelope, type EventEnvelope } from "./envelope.js";
import { InProcessEventBus, NoStreamError } from "./in-process-bus.js";
import { ackStatement, claimGroupStatement } from "./in-process-statements.js";
import { InProcessBusStore } from "./in-process-store.js";

let database: Database;
let counter = 0;

beforeAll(async () => {
  database = await createDatabase({ driver: "pglite", dataDir: "memory://" });
});

afterAll(async () => {
  await database?.destroy();
});

/** A fresh stream (own subjects) per test, so tests sharing the database never see each other. */
function freshStream(): { stream: StreamSpec; subject: (event: string) => string } {
  counter += 1;
  const prefix = `petri.t${counter}${Math.random().toString(36).slice(2, 8)}`;
  return {
    stream: { name: `T_${prefix.replaceAll(".", "_").toUpperCase()}`, subjects: [`${prefix}.>`] },
    subject: (event) => `${prefix}.${event}`,
  };
}

function envelopeOn(subject: string, aggregateId = "agg_1", version = 1): EventEnvelope {
  const envelope = buildEnvelope(
    events.identity.accountRegistered,
    { account: { id: aggregateId } },
    { aggregateId, aggregateVersion: version, occurredAt: new Date() },
  );
  envelope.subject = subject;
  return envelope;
}

interface Recorder {
  deliveries: Array<{ id: string; subject: string; count: number }>;
  stop: () => Promise<void>;
  done: Promise<void>;
}

function consumeInto(
  bus: InProcessEventBus,
  stream: StreamSpec,
  durable: string,
  filterSubject: string,
  onDelivery: (d: Delivery) => Promise<void>,
  opts: { concurrency?: number; ackWaitMs?: number } = {},
): Recorder {
  const controller = new AbortController();
  const deliveries: Recorder["deliveries"] = [];
  const done = bus.consume(
    { stream, durable, filterSubject, ackWaitMs: opts.ackWaitMs ?? 10_000 },
    async (d) => {
      deliveries.push({ id: d.envelope.id, subject: d.envelope.subject, count: d.deliveryCount });
      await onDelivery(d);
    },
    { concurrency: opts.concurrency ?? 4, signal: controller.signal },
  );
  return {
    deliveries,
    done,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

describe("InProcessEventBus (PGlite)", () => {
  it("dedupes publishes by envelope id and returns the original seq", async () => {
    const clock = new FakeClock();
    const bus = await InProcessEventBus.create({ db: database, clock, logger: testLogger() });
    const { stream, subject } = freshStream();
    await bus.ensureStream(stream);
    await bus.ensureStream(stream); // idempotent
    const first = envelopeOn(subject("a"));
    const second = envelopeOn(subject("a"));
    const ack1 = await bus.publish(first);
    const ack2 = await bus.publish(second);
    const again = await bus.publish(first);
    expect(ack1).toEqual({ stream: stream.name, seq: 1, duplicate: false });
    expect(ack2).toEqual({ stream: stream.name, seq: 2, duplicate: false });
    expect(again).toEqual({ stream: stream.name, seq: 1, duplicate: true });
    // Concurrent publishes of one id: exactly one is new.
    const third = envelopeOn(subject("a"));
    const acks = await Promise.all(Array.from({ length: 5 }, () => bus.publish(third)));
    expect(acks.filter((a) => !a.duplicate)).toHaveLength(1);
    expect(new Set(acks.map((a) => a.seq))).toEqual(new Set([3]));
    expect(await bus.streamInfo(stream.name)).toEqual({ messages: 3, lastSeq: 3 });
    await expect(bus.publish(envelopeOn("petri.nowhere.x"))).rejects.toBeInstanceOf(NoStreamError);
    await bus.close();
  });

  it("delivers matching messages in stream order to a durable consumer and applies the filter", async () => {
    const clock = new FakeClock();
    const bus = await InProcessEventBus.create({ db: database, clock, logger: testLogger() });
    const { stream, subject } = freshStream();
    await bus.ensureStream(stream);
    const published: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const e = envelopeOn(subject(i % 2 === 0 ? "even.x" : "odd.x"));
      await bus.publish(e);
      if (i % 2 === 0) published.push(e.id);
    }
    const filter = stream.subjects[0]!.replace(">", "even.*");
    const rec = consumeInto(bus, stream, "evens", filter, (d) => d.ack(), { concurrency: 1 });
    await eventually(() => rec.deliveries.length === 10, "10 even deliveries");
    expect(rec.deliveries.map((d) => d.id)).toEqual(published);
    expect(rec.deliveries.every((d) => d.count === 1 && d.subject.endsWith("even.x"))).toBe(true);
    // Published while consuming: woken at once, no clock movement needed.
    const late = envelopeOn(subject("even.late"));
    await bus.publish(late);
    await eventually(() => rec.deliveries.some((d) => d.id === late.id), "the late message");
    await delay(50);
    expect(rec.deliveries).toHaveLength(11);
    await rec.stop();
    await bus.close();
  });

  it("reports a consumer's lag: messages past its cursor, and deliveries awaiting an ack", async () => {
    const clock = new FakeClock();
    const bus = await InProcessEventBus.create({ db: database, clock, logger: testLogger() });
    const { stream, subject } = freshStream();
    await bus.ensureStream(stream);
    expect(await bus.consumerLag(stream, "laggard")).toEqual({ pending: 0, unacknowledged: 0 });
    for (let i = 0; i < 3; i += 1) await bus.publish(envelopeOn(subject("x")));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const rec = consumeInto(bus, stream, "laggard", stream.subjects[0]!, async (d) => {
      await held;
      await d.ack();
    });
    // All three claimed (past the cursor), none acknowledged yet.
    await eventually(() => rec.deliveries.length === 3, "3 deliveries in flight");
    expect(await bus.consumerLag(stream, "laggard")).toEqual({ pending: 0, unacknowledged: 3 });
    const stopping = rec.stop();
    release();
    await stopping;
    await bus.publish(envelopeOn(subject("x")));
    expect(await bus.consumerLag(stream, "laggard")).toEqual({ pending: 1, unacknowledged: 0 });
    await bus.close();
  });

  it("redelivers after nak(delay) and after the ack deadline, never after term", async () => {
    const clock = new FakeClock();
    const bus = await InProcessEventBus.create({ db: database, clock, logger: testLogger() });
    const { stream, subject } = freshStream();
    await bus.ensureStream(stream);
    const nakMe = envelopeOn(subject("nak"));
    const ignoreMe = envelopeOn(subject("ignore"));
    const termMe = envelopeOn(subject("term"));
    for (const e of [nakMe, ignoreMe, termMe]) await bus.publish(e);

    const rec = consumeInto(
      bus,
      stream,
      "retry",
      stream.subjects[0]!,
      async (d) => {
        if (d.envelope.id === nakMe.id) return d.deliveryCount === 1 ? d.nak(5_000) : d.ack();
        if (d.envelope.id === termMe.id) return d.term("poison");
        if (d.deliveryCount >= 2) return d.ack(); // ignoreMe: first delivery left unacknowledged
      },
      { ackWaitMs: 10_000 },
    );
    const countOf = (id: string) => rec.deliveries.filter((d) => d.id === id).length;
    await eventually(() => rec.deliveries.length === 3, "three first deliveries");

    await clock.advance(4_999);
    await delay(100);
    expect(countOf(nakMe.id)).toBe(1); // the nak delay has not passed

    await clock.advance(1);
    await eventually(() => countOf(nakMe.id) === 2, "redelivery after the nak delay");
    expect(rec.deliveries.find((d) => d.id === nakMe.id && d.count === 2)).toBeDefined();
    expect(countOf(ignoreMe.id)).toBe(1); // ack wait (10 s) not reached yet

    await clock.advance(5_000);
    await eventually(() => countOf(ignoreMe.id) === 2, "redelivery after the ack deadline");

    await clock.advance(60_000);
    await delay(100);
    expect(countOf(termMe.id)).toBe(1);
    expect(countOf(nakMe.id)).toBe(2);
    expect(countOf(ignoreMe.id)).toBe(2);
    await rec.stop();
    await bus.close();
  });

  it("working() pushes the ack deadline out", async () => {
    const clock = new FakeClock();
    const bus = await InProcessEventBus.create({ db: database, clock, logger: testLogger() });
    const { stream, subject } = freshStream();
    await bus.ensureStream(stream);
    await bus.publish(envelopeOn(subject("slow")));
    let current: Delivery | undefined;
    const rec = consumeInto(
      bus,
      stream,
      "slow",
      stream.subjects[0]!,
      async (d) => {
        current = d;
      },
      { ackWaitMs: 10_000 },
    );
    await eventually(() => current !== undefined, "first delivery");
    await clock.advance(8_000);
    await current!.working();
    await clock.advance(8_000); // 16 s after delivery, 8 s after working()
    await delay(100);
    expect(rec.deliveries).toHaveLength(1);
    await clock.advance(2_000);
    await eventually(() => rec.deliveries.length === 2, "redelivery 10 s after working()");
    await rec.stop();
    await bus.close();
  });

  it("never runs more than `concurrency` handlers at once", async () => {
    const clock = new FakeClock();
    const bus = await InProcessEventBus.create({ db: database, clock, logger: testLogger() });
    const { stream, subject } = freshStream();
    await bus.ensureStream(stream);
    for (let i = 0; i < 12; i += 1) await bus.publish(envelopeOn(subject("x")));
    let running = 0;
    let peak = 0;
    const rec = consumeInto(
      bus,
      stream,
      "bounded",
      stream.subjects[0]!,
      async (d) => {
        running += 1;
        peak = Math.max(peak, running);
        await delay(20);
        running -= 1;
        await d.ack();
      },
      { concurrency: 3 },
    );
    await eventually(() => rec.deliveries.length === 12, "12 deliveries");
    expect(peak).toBe(3);
    await rec.stop();
    await bus.close();
  });

  it("keeps messages and consumer state across a re-created bus over the same database", async () => {
    const clock = new FakeClock();
    const { stream, subject } = freshStream();
    const bus1 = await InProcessEventBus.create({ db: database, clock, logger: testLogger() });
    await bus1.ensureStream(stream);
    const sent: EventEnvelope[] = [];
    for (let i = 0; i < 5; i += 1) {
      const e = envelopeOn(subject("x"));
      sent.push(e);
      await bus1.publish(e);
    }
    // Acknowledge the first three, leave two in flight, then "crash" (close without acks).
    const rec1 = consumeInto(bus1, stream, "durable", stream.subjects[0]!, async (d) => {
      if (sent.slice(0, 3).some((e) => e.id === d.envelope.id)) await d.ack();
    });
    await eventually(() => rec1.deliveries.length === 5, "five deliveries on bus1");
    await rec1.stop();
    await bus1.close();

    const bus2 = await InProcessEventBus.create({ db: database, clock, logger: testLogger() });
    // The stream is known from the database: publishing needs no ensureStream here.
    const newer = envelopeOn(subject("x"));
    expect(await bus2.publish(newer)).toEqual({ stream: stream.name, seq: 6, duplicate: false });
    expect((await bus2.publish(sent[0]!)).duplicate).toBe(true);

    const rec2 = consumeInto(bus2, stream, "durable", stream.subjects[0]!, (d) => d.ack());
    await eventually(() => rec2.deliveries.length === 1, "the new message");
    expect(rec2.deliveries[0]!.id).toBe(newer.id);
    await clock.advance(10_000); // ack wait of the two left in flight by bus1
    await eventually(() => rec2.deliveries.length === 3, "the two unacknowledged ones");
    expect(rec2.deliveries.slice(1).map((d) => [d.id, d.count])).toEqual([
      [sent[3]!.id, 2],
      [sent[4]!.id, 2],
    ]);
    await clock.advance(60_000);
    await delay(100);
    expect(rec2.deliveries).toHaveLength(3);
    await rec2.stop();
    await bus2.close();
  });

  it("shares one durable consumer between two loops without double delivery", async () => {
    const clock = new FakeClock();
    const bus = await InProcessEventBus.create({ db: database, clock, logger: testLogger() });
    const { stream, subject } = freshStream();
    await bus.ensureStream(stream);
    const a = consumeInto(bus, stream, "shared", stream.subjects[0]!, async (d) => {
      await delay(5);
      await d.ack();
    });
    const b = consumeInto(bus, stream, "shared", stream.subjects[0]!, async (d) => {
      await delay(5);
      await d.ack();
    });
    for (let i = 0; i < 40; i += 1) await bus.publish(envelopeOn(subject("x")));
    await eventually(() => a.deliveries.length + b.deliveries.length === 40, "40 deliveries");
    await delay(50);
    const ids = [...a.deliveries, ...b.deliveries].map((d) => d.id);
    expect(new Set(ids).size).toBe(40);
    expect(ids).toHaveLength(40);
    await a.stop();
    await b.stop();
    await bus.close();
  });

  it("groups the claims and acknowledgements of consumers woken together, each still getting its own messages once and in order", async () => {
    const clock = new FakeClock();
    const bus = await InProcessEventBus.create({ db: database, clock, logger: testLogger() });
    const { stream, subject } = freshStream();
    await bus.ensureStream(stream);
    const claims = vi.spyOn(InProcessBusStore.prototype, "claim");
    const claimStatements = vi.spyOn(claimGroupStatement, "execute");
    const ackStatements = vi.spyOn(ackStatement, "execute");
    try {
      const filters = ["a", "b", "*", "a", "b", "*"];
      const recorders = filters.map((event, index) =>
        consumeInto(bus, stream, `c${index}`, subject(event), (d) => d.ack(), { concurrency: 1 }),
      );
      const published = Array.from({ length: 30 }, (_, i) => envelopeOn(subject(i % 3 === 0 ? "a" : "b")));
      for (const envelope of published) await bus.publish(envelope);
      const expected = filters.map((event) =>
        published.filter((e) => event === "*" || e.subject === subject(event)).map((e) => e.id),
      );
      const total = expected.reduce((sum, ids) => sum + ids.length, 0);
      await eventually(
        () => recorders.reduce((sum, r) => sum + r.deliveries.length, 0) === total,
        `${total} deliveries`,
      );
      await eventually(async () => {
        const lags = await Promise.all(filters.map((_, index) => bus.consumerLag(stream, `c${index}`)));
        return lags.every((lag) => lag.unacknowledged === 0);
      }, "every delivery acknowledged");
      recorders.forEach((recorder, index) => {
        expect(recorder.deliveries.map((d) => d.id)).toEqual(expected[index]);
      });
      expect(claimStatements.mock.calls.length).toBeLessThan(claims.mock.calls.length);
      // Loops that know their next due time do not ask for it again with every claim.
      const asked = claimStatements.mock.calls.flatMap(([, values]) => values.askNextDue);
      expect(asked).toContain(false);
      expect(ackStatements.mock.calls.length).toBeLessThan(total);
      for (const recorder of recorders) await recorder.stop();
    } finally {
      claims.mockRestore();
      claimStatements.mockRestore();
      ackStatements.mockRestore();
      await bus.close();
    }
  });

  it("purges messages every consumer is done with, keeping those still in flight", async () => {
    const clock = new FakeClock();
    const bus = await InProcessEventBus.create({ db: database, clock, logger: testLogger() });
    const { stream, subject } = freshStream();
    await bus.ensureStream(stream);
    const keep = envelopeOn(subject("keep"));
    await bus.publish(envelopeOn(subject("done")));
    await bus.publish(keep);
    const rec = consumeInto(bus, stream, "p", stream.subjects[0]!, async (d) => {
      if (d.envelope.id !== keep.id) await d.ack();
    });
    await eventually(() => rec.deliveries.length === 2, "two deliveries");
    await rec.stop();
    await clock.advance(3_600_000);
    // (Other tests' streams share this database: only this stream is checked.)
    expect(await bus.purgeDelivered(60_000)).toBeGreaterThanOrEqual(1);
    expect((await bus.streamInfo(stream.name)).messages).toBe(1);
    // The one still in flight is still there to be redelivered.
    const again = consumeInto(bus, stream, "p", stream.subjects[0]!, (d) => d.ack());
    await eventually(() => again.deliveries.length === 1, "the kept message redelivered");
    expect(again.deliveries[0]).toMatchObject({ id: keep.id, count: 2 });
    await again.stop();
    await bus.close();
  });
});

describe("InProcessEventBus.subscribe", () => {
  it("hands every subscriber each matching message published after it subscribed, until aborted", async () => {
    const bus = await InProcessEventBus.create({
      db: database,
      clock: new FakeClock(),
      logger: testLogger(),
    });
    const { stream, subject } = freshStream();
    await bus.ensureStream(stream);
    const before = envelopeOn(subject("revoked"));
    await bus.publish(before);

    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = new AbortController();
    const stopSecond = new AbortController();
    await bus.subscribe(
      { stream, filterSubject: subject("revoked") },
      (e) => first.push(e.id),
      stopFirst.signal,
    );
    await bus.subscribe({ stream, filterSubject: subject(">") }, (e) => second.push(e.id), stopSecond.signal);

    const matching = envelopeOn(subject("revoked"));
    const other = envelopeOn(subject("other"));
    await bus.publish(matching);
    await bus.publish(matching); // a duplicate publish is not handed out again
    await bus.publish(other);
    expect(first).toEqual([matching.id]);
    expect(second).toEqual([matching.id, other.id]);

    stopFirst.abort();
    const after = envelopeOn(subject("revoked"));
    await bus.publish(after);
    expect(first).toEqual([matching.id]);
    expect(second).toEqual([matching.id, other.id, after.id]);
    await bus.close();
  });
});
