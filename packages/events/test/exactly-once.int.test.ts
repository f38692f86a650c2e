/**
 * Outbox -> bus -> consumer, exactly-once effects (reliability test plan §3, E1/E2/E4/E6),
 * against nats-server + PostgreSQL and against the in-process bus + PGlite: the same
 * scenarios, the same expectations.
 */
import { Failpoints, FAILPOINT, FailpointError, metricsRegistry } from "@petri/service-kit";
import { metricSampler } from "@petri/fixtures/service-kit";
import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import type { EventBus } from "../src/bus.js";
import { on } from "../src/event-handlers.js";
import { decodeEnvelope } from "../src/envelope.js";
import { recordEvent } from "../src/record-event.js";
import {
  createTestService,
  expectExactlyOnce,
  inProcessPgliteRig,
  inProcessPgRig,
  natsPgRig,
  type RigFactory,
  describeOnRigs,
} from "./support/rig.js";
import { clusterInfraReady, FakeClock } from "./support/testkit.js";
import { delay, eventually } from "./support/wait.js";

const metricSample = metricSampler(metricsRegistry);

const factories: RigFactory[] = [natsPgRig, inProcessPgliteRig, inProcessPgRig];
const clusterReady = await clusterInfraReady();

describeOnRigs(factories, clusterReady, ({ skip, rig, factory }) => {
  it.skipIf(skip)(
    "(a) a rolled-back transaction leaves no event; every committed one is published and consumed once",
    async () => {
      const svc = await createTestService(rig());
      const committed: string[] = [];
      for (let i = 0; i < 30; i += 1) {
        const rollback = i % 3 === 1;
        try {
          const id = await svc.db.transaction().execute(async (trx) => {
            const aggregateId = `usr_a${i}`;
            await trx.insertInto("business").values({ id: aggregateId }).execute();
            const envelope = await recordEvent(
              trx,
              svc.spec,
              { account: { id: aggregateId } },
              {
                aggregateId,
                aggregateVersion: 1,
                occurredAt: new Date(),
              },
            );
            // A failure between the state change + outbox write and the commit (E1).
            if (rollback) throw new FailpointError("between_write_and_commit");
            return envelope.id;
          });
          committed.push(id);
        } catch (err) {
          expect(err).toBeInstanceOf(FailpointError);
        }
      }
      // recordEvent refuses to run outside a transaction, so it cannot be split from the change.
      await expect(
        recordEvent(svc.db, svc.spec, {}, { aggregateId: "x", aggregateVersion: 1, occurredAt: new Date() }),
      ).rejects.toThrow(/inside the transaction/);

      const outbox = await svc.db
        .selectFrom("outbox")
        .select(["id", "aggregate_id"])
        .orderBy("seq")
        .execute();
      const business = await svc.db.selectFrom("business").select("id").orderBy("id").execute();
      expect(outbox.map((r: { id: string }) => r.id)).toEqual(committed);
      expect(business.map((r: { id: string }) => r.id).sort()).toEqual(
        outbox.map((r: { aggregate_id: string }) => r.aggregate_id).sort(),
      );

      const runner = svc.runner("svc-a--effects");
      const relay = svc.relay();
      expect((await relay.lag()).unsent).toBe(committed.length);
      runner.start();
      relay.start();
      await eventually(
        async () => (await svc.effects()).size === committed.length,
        "every committed event consumed",
      );
      await relay.stop();
      await delay(200);
      await runner.stop();
      expect(expectExactlyOnce(await svc.effects(), committed)).toEqual({
        missing: [],
        duplicated: [],
        unexpected: [],
      });
      expect(await svc.unsent()).toBe(0);
      expect((await rig().bus.streamInfo(svc.stream.name)).messages).toBe(committed.length);
      expect(relay.stats()).toMatchObject({ published: committed.length, duplicates: 0 });
      // What went over the bus is what was recorded.
      const sample = await svc.db
        .selectFrom("outbox")
        .select(["id", "envelope"])
        .limit(1)
        .executeTakeFirstOrThrow();
      expect(decodeEnvelope(sample.envelope).id).toBe(sample.id);
    },
  );

  it.skipIf(skip)(
    "(b) relay crash after the puback, before mark-sent: a new relay republishes, the bus dedupes, effects once",
    async () => {
      const svc = await createTestService(rig());
      const ids = await svc.commit(10);
      const crashing = new Failpoints();
      crashing.arm(FAILPOINT.afterPubackBeforeMarkSent, "throw*1");
      // The relays' clock only decides leases: a fake one makes "after the lease" exact.
      const clock = new FakeClock(new Date());
      const first = svc.relay({ failpoints: crashing, leaseMs: 30_000, clock });
      await expect(first.runOnce()).rejects.toBeInstanceOf(FailpointError);
      expect(first.stats()).toMatchObject({ published: 1, duplicates: 0 });
      expect(await svc.unsent()).toBe(10); // nothing marked sent
      // The batch is leased by the dead relay: a new one finds nothing until the lease expires.
      const second = svc.relay({ leaseMs: 30_000, clock });
      expect(await second.runOnce()).toBe(0);
      await clock.advance(29_999);
      expect(await second.runOnce()).toBe(0);
      await clock.advance(2);
      await svc.drain(second);
      expect(second.stats()).toMatchObject({ published: 9, duplicates: 1 });
      expect((await rig().bus.streamInfo(svc.stream.name)).messages).toBe(10); // one copy each

      const runner = svc.runner("svc-b--effects");
      runner.start();
      await eventually(async () => (await svc.effects()).size === 10, "ten effects");
      await delay(300);
      await runner.stop();
      expect(expectExactlyOnce(await svc.effects(), ids)).toEqual({
        missing: [],
        duplicated: [],
        unexpected: [],
      });
      const attempts = await svc.db.selectFrom("outbox").select("attempts").orderBy("seq").execute();
      expect(attempts.map((r: { attempts: number }) => r.attempts)).toEqual(Array(10).fill(2));
    },
  );

  it.skipIf(skip)(
    "(c) consumer crash after its effect, before the ack: redelivered, effect exactly once",
    async () => {
      const svc = await createTestService(rig());
      const ids = await svc.commit(20);
      await svc.drain(svc.relay());
      const crashing = new Failpoints();
      crashing.arm(FAILPOINT.afterEffectBeforeAck, "throw*3");
      const runner = svc.runner("svc-c--effects", { failpoints: crashing, ackWaitMs: 800 });
      runner.start();
      await eventually(async () => (await svc.effects()).size === 20, "twenty effects");
      // The three abandoned deliveries come back after the ack wait and hit the inbox.
      await eventually(
        () => runner.stats().duplicates === 3,
        () => `3 inbox hits, stats ${JSON.stringify(runner.stats())}`,
      );
      await delay(1_200); // longer than ackWait: nothing else may come back
      await runner.stop();
      expect(crashing.hitCount(FAILPOINT.afterEffectBeforeAck)).toBe(3);
      expect(runner.stats()).toMatchObject({ applied: 20, duplicates: 3, retried: 0, deadLettered: 0 });
      expect(expectExactlyOnce(await svc.effects(), ids)).toEqual({
        missing: [],
        duplicated: [],
        unexpected: [],
      });
      const inbox = await svc.db
        .selectFrom("inbox")
        .select("event_id")
        .where("consumer", "=", "svc-c--effects")
        .execute();
      expect(inbox).toHaveLength(20);
    },
  );

  it.skipIf(skip)(
    "(d) a poison message is dead-lettered after N attempts while 200 others keep flowing",
    async () => {
      const svc = await createTestService(rig());
      const [poison] = await svc.commit(1, { aggregatePrefix: "poison" });
      const good = await svc.commit(200);
      let poisonAttempts = 0;
      const runner = svc.runner("svc-d--effects", {
        maxAttempts: 3,
        backoffMs: () => 150,
        ackWaitMs: 5_000,
        subscriptions: [
          {
            stream: svc.stream,
            filterSubject: svc.stream.subjects[0]!,
            handlers: {
              [svc.spec.schema.typeName]: async ({ trx, envelope }) => {
                if (envelope.aggregateId.startsWith("poison")) {
                  poisonAttempts += 1;
                  throw new Error(`cannot apply ${envelope.aggregateId}: poison pill`);
                }
                await trx
                  .insertInto("effects")
                  .values({
                    consumer: "svc-d--effects",
                    event_id: envelope.id,
                    aggregate_id: envelope.aggregateId,
                  })
                  .execute();
              },
            },
          },
        ],
      });
      const relay = svc.relay();
      const counted = (name: string) => metricSample(name, { consumer: "svc-d--effects" });
      const countedBefore = {
        deadLettered: await counted("petri_consumer_dead_lettered_total"),
        redeliveries: await counted("petri_consumer_redeliveries_total"),
      };
      runner.start();
      relay.start();
      await eventually(async () => {
        const dead = await svc.db.selectFrom("dead_letters").selectAll().execute();
        return dead.length === 1 && (await svc.effects()).size === 200;
      }, "poison dead-lettered and 200 effects");
      await delay(600); // several backoff periods: a terminated message must not come back
      await relay.stop();
      await runner.stop();
      const [dead] = await svc.db.selectFrom("dead_letters").selectAll().execute();
      expect(dead).toMatchObject({
        consumer: "svc-d--effects",
        event_id: poison,
        subject: svc.spec.subject,
        type: svc.spec.schema.typeName,
        attempts: 3,
        reason: "cannot apply poison_1: poison pill",
      });
      expect(decodeEnvelope(dead!.envelope).id).toBe(poison);
      expect(poisonAttempts).toBe(3);
      expect(runner.stats()).toMatchObject({ applied: 200, retried: 2, deadLettered: 1 });
      // The poison pill's second and third deliveries were redeliveries.
      expect(await counted("petri_consumer_dead_lettered_total")).toBe(countedBefore.deadLettered + 1);
      expect(await counted("petri_consumer_redeliveries_total")).toBe(countedBefore.redeliveries + 2);
      expect(expectExactlyOnce(await svc.effects(), good)).toEqual({
        missing: [],
        duplicated: [],
        unexpected: [],
      });
      // The failed attempts left no inbox row: only the 200 good ones are recorded.
      const inbox = await svc.db.selectFrom("inbox").select("event_id").execute();
      expect(inbox.map((r: { event_id: string }) => r.event_id)).not.toContain(poison);
      expect(inbox).toHaveLength(200);
    },
  );

  it.skipIf(skip)("a failed publish is recorded on the row and retried after its backoff", async () => {
    const svc = await createTestService(rig());
    const ids = await svc.commit(5);
    let failNext = false;
    const flaky: EventBus = {
      kind: rig().bus.kind,
      ensureStream: (s) => rig().bus.ensureStream(s),
      publish: async (e) => {
        if (failNext && e.id === ids[2]) {
          failNext = false;
          throw new Error("bus unavailable");
        }
        return rig().bus.publish(e);
      },
      consume: (spec, h, o) => rig().bus.consume(spec, h, o),
      subscribe: (spec, h, s) => rig().bus.subscribe(spec, h, s),
      connected: () => rig().bus.connected(),
      close: async () => undefined,
    };
    const clock = new FakeClock(new Date());
    const relay = svc.relay({ bus: flaky, clock, retryBackoffMs: (n) => 1_000 * n });
    failNext = true;
    expect(await relay.runOnce()).toBe(5);
    expect(relay.stats()).toMatchObject({ published: 2, failures: 1 });
    const rows = async () =>
      svc.db
        .selectFrom("outbox")
        .select(["id", "sent_at", "attempts", "last_error", "lease_until"])
        .orderBy("seq")
        .execute();
    let state = await rows();
    expect(state.map((r: { sent_at: Date | null }) => r.sent_at !== null)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(state[2]).toMatchObject({ attempts: 1, last_error: "bus unavailable" });
    expect((state[2]!.lease_until as Date).getTime()).toBe(clock.now().getTime() + 1_000);
    expect(
      state.slice(3).map((r: { attempts: number; lease_until: Date | null }) => [r.attempts, r.lease_until]),
    ).toEqual([
      [0, null],
      [0, null],
    ]);
    // The others go on; the failed row waits for its backoff.
    expect(await relay.runOnce()).toBe(2);
    expect(await svc.unsent()).toBe(1);
    expect(await relay.runOnce()).toBe(0);
    await clock.advance(1_001);
    expect(await relay.runOnce()).toBe(1);
    state = await rows();
    expect(state[2]).toMatchObject({ attempts: 2, last_error: null, lease_until: null });
    expect(await svc.unsent()).toBe(0);
    expect(await relay.lag()).toEqual({ unsent: 0, oldestAgeMs: 0 });
    // Sent rows stay (for replays) until purged.
    expect(await relay.purgeSent(86_400_000)).toBe(0);
    await clock.advance(86_400_001);
    expect(await relay.purgeSent(86_400_000)).toBe(5);
  });

  it.skipIf(skip)(
    "a handler slower than the ack wait keeps its delivery (working() heartbeats); effect once",
    async () => {
      const svc = await createTestService(rig());
      const ids = await svc.commit(2);
      await svc.drain(svc.relay());
      let calls = 0;
      const runner = svc.runner("svc-slow--effects", {
        ackWaitMs: 1_000,
        subscriptions: [
          {
            stream: svc.stream,
            filterSubject: svc.stream.subjects[0]!,
            handlers: {
              [svc.spec.schema.typeName]: async ({ trx, envelope }) => {
                calls += 1;
                await delay(2_200);
                await trx
                  .insertInto("effects")
                  .values({ consumer: "slow", event_id: envelope.id, aggregate_id: envelope.aggregateId })
                  .execute();
              },
            },
          },
        ],
      });
      runner.start();
      await eventually(async () => (await svc.effects()).size === 2, "two effects");
      await delay(1_500);
      await runner.stop();
      expect(calls).toBe(2);
      expect(expectExactlyOnce(await svc.effects(), ids)).toEqual({
        missing: [],
        duplicated: [],
        unexpected: [],
      });
      // On PGlite the heartbeat queues behind the handler's transaction (one connection), so
      // a redelivery may happen there; the inbox absorbs it without calling the handler.
      if (factory.kind !== "in-process") expect(runner.stats().duplicates).toBe(0);
    },
  );

  it.skipIf(skip)(
    "types without a handler are acknowledged without a database write; a restarted consumer resumes where it left off",
    async () => {
      const svc = await createTestService(rig());
      const firstIds = await svc.commit(5);
      await svc.drain(svc.relay());
      const first = svc.runner("svc-e--effects", {
        subscriptions: [{ stream: svc.stream, filterSubject: svc.stream.subjects[0]!, handlers: {} }],
      });
      first.start();
      await eventually(async () => first.stats().skipped === 5, "five skipped without a handler");
      await first.stop();
      expect(first.stats()).toMatchObject({ applied: 0, skipped: 5, duplicates: 0 });
      expect((await svc.effects()).size).toBe(0);
      expect(await inboxRows(svc.db)).toBe(0);

      const laterIds = await svc.commit(5);
      await svc.drain(svc.relay());
      const second = svc.runner("svc-e--effects", { bus: await rig().newBus() });
      second.start();
      await eventually(async () => (await svc.effects()).size === 5, "five new effects");
      await delay(300);
      await second.stop();
      expect(expectExactlyOnce(await svc.effects(), laterIds)).toEqual({
        missing: [],
        duplicated: [],
        unexpected: [],
      });
      expect(firstIds.some((id) => laterIds.includes(id))).toBe(false);
    },
  );
  it.skipIf(skip)(
    "an event the handler's appliesTo rejects is acknowledged without a transaction; the others apply once",
    async () => {
      const svc = await createTestService(rig());
      const kept = await svc.commit(3, { aggregatePrefix: "keep" });
      await svc.commit(3, { aggregatePrefix: "skip" });
      await svc.drain(svc.relay());
      const runner = svc.runner("svc-f--effects", {
        subscriptions: [
          {
            stream: svc.stream,
            filterSubject: svc.stream.subjects[0]!,
            handlers: on(
              svc.spec,
              async ({ trx, envelope }) => {
                await trx
                  .insertInto("effects")
                  .values({
                    consumer: "svc-f--effects",
                    event_id: envelope.id,
                    aggregate_id: envelope.aggregateId,
                  })
                  .execute();
              },
              { appliesTo: (payload) => payload.account?.id.startsWith("keep") ?? false },
            ),
          },
        ],
      });
      runner.start();
      await eventually(async () => runner.stats().applied + runner.stats().skipped === 6, "six settled");
      await runner.stop();
      expect(runner.stats()).toMatchObject({ applied: 3, skipped: 3, duplicates: 0 });
      expect(expectExactlyOnce(await svc.effects(), kept)).toEqual({
        missing: [],
        duplicated: [],
        unexpected: [],
      });
      expect(await inboxRows(svc.db)).toBe(3);
    },
  );
  it.skipIf(skip)(
    "an idempotent handler applies in one statement: no inbox row, no transaction, its callbacks run after",
    async () => {
      const svc = await createTestService(rig());
      const ids = await svc.commit(4);
      await svc.drain(svc.relay());
      const announced: string[] = [];
      let inTransaction = 0;
      const runner = svc.runner("svc-g--effects", {
        subscriptions: [
          {
            stream: svc.stream,
            filterSubject: svc.stream.subjects[0]!,
            handlers: on(
              svc.spec,
              async ({ trx, envelope, afterCommit }) => {
                if (trx.isTransaction) inTransaction += 1;
                // One statement, as a version-guarded upsert is (its idempotence is the handler's).
                await trx
                  .insertInto("effects")
                  .values({
                    consumer: "svc-g--effects",
                    event_id: envelope.id,
                    aggregate_id: envelope.aggregateId,
                  })
                  .execute();
                afterCommit(() => announced.push(envelope.id));
              },
              { idempotent: true },
            ),
          },
        ],
      });
      runner.start();
      await eventually(async () => runner.stats().applied === 4, "four applied");
      await runner.stop();
      expect(expectExactlyOnce(await svc.effects(), ids)).toEqual({
        missing: [],
        duplicated: [],
        unexpected: [],
      });
      expect(await inboxRows(svc.db)).toBe(0);
      expect(inTransaction).toBe(0);
      expect(announced.sort()).toEqual([...ids].sort());
    },
  );
});

async function inboxRows(db: Kysely<any>): Promise<number> {
  const row = await db
    .selectFrom("inbox")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
