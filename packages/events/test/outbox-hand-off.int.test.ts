/**
 * The relay's hand-off (D333): a unit of work's events are published from memory once its
 * transaction committed, and marked sent, without the relay leasing or reading the rows; rows
 * whose hand-off never happened (the relay "crashed" after the commit) are held until the hold
 * ends and then published by any relay's runs, the bus deduping a repeat. On NATS and on the
 * in-process bus.
 */
import { Failpoints, FAILPOINT } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import type { EventEnvelope } from "@petri/contracts/common";
import type { EventBus } from "../src/bus.js";
import type { OutboxRelay } from "../src/outbox-relay.js";
import { eventFor, recordEvents } from "../src/record-event.js";
import { createUnitOfWork } from "../src/unit-of-work.js";
import {
  createTestService,
  inProcessPgliteRig,
  inProcessPgRig,
  natsPgRig,
  type RigFactory,
  type TestService,
  describeOnRigs,
} from "./support/rig.js";
import { clusterInfraReady } from "./support/testkit.js";
import { eventually } from "./support/wait.js";

const clusterReady = await clusterInfraReady();
const factories: RigFactory[] = [natsPgRig, inProcessPgliteRig, inProcessPgRig];

interface OutboxState {
  id: string;
  sent: boolean;
  held: boolean;
}

async function outboxOf(db: Kysely<any>, aggregateId: string): Promise<OutboxState[]> {
  const rows = await db
    .selectFrom("outbox")
    .select(["id", "sent_at", "lease_until"])
    .where("aggregate_id", "=", aggregateId)
    .orderBy("seq")
    .execute();
  return rows.map((row: { id: string; sent_at: Date | null; lease_until: Date | null }) => ({
    id: row.id,
    sent: row.sent_at !== null,
    held: row.lease_until !== null,
  }));
}

/** Commits a business row and `count` events of `aggregateId` through `relay`'s hand-off. */
async function commitThrough(svc: TestService, relay: OutboxRelay, aggregateId: string, count: number) {
  const unitOfWork = createUnitOfWork(svc.db, relay.committedEvents);
  return unitOfWork.run(async (trx) => {
    await trx.insertInto("business").values({ id: aggregateId }).execute();
    return recordEvents(
      trx,
      Array.from({ length: count }, (_, index) =>
        eventFor(
          svc.spec,
          { account: { id: aggregateId } },
          { aggregateId, aggregateVersion: index + 1, occurredAt: new Date() },
        ),
      ),
    );
  });
}

describeOnRigs(factories, clusterReady, ({ skip, rig }) => {
  it.skipIf(skip)(
    "publishes a commit's events from memory and marks them sent, with no lease taken",
    async () => {
      const svc = await createTestService(rig());
      // No polls: the loop looks once at start, then only when poked.
      const relay = svc.relay({ idleMs: 600_000, minIdleMs: 600_000 });
      relay.start();
      await eventually(() => relay.stats().looks >= 1, "the relay's first look");
      const looksBefore = relay.stats().looks;

      const envelopes = await commitThrough(svc, relay, "usr_handed", 3);

      await eventually(async () => (await svc.unsent()) === 0, "the events marked sent");
      expect(relay.stats()).toMatchObject({ published: 3, duplicates: 0, failures: 0, looks: looksBefore });
      expect(await outboxOf(svc.db, "usr_handed")).toEqual(
        envelopes.map((envelope) => ({ id: envelope.id, sent: true, held: false })),
      );
      await relay.stop();
    },
  );

  it.skipIf(skip)("leaves rows unheld for the relay's runs while the relay is stopped", async () => {
    const svc = await createTestService(rig());
    const relay = svc.relay();
    await commitThrough(svc, relay, "usr_stopped", 1);
    expect(await outboxOf(svc.db, "usr_stopped")).toMatchObject([{ sent: false, held: false }]);
    await svc.drain(relay);
    expect(relay.stats()).toMatchObject({ published: 1 });
  });

  it.skipIf(skip)(
    "a relay that crashes after the commit leaves its rows held; once the hold ends another publishes them",
    async () => {
      const svc = await createTestService(rig());
      const failpoints = new Failpoints();
      failpoints.arm(FAILPOINT.afterPubackBeforeMarkSent, "throw");
      const crashing = svc.relay({ failpoints, handOffHoldMs: 500, idleMs: 600_000, minIdleMs: 600_000 });
      crashing.start();
      const envelopes = await commitThrough(svc, crashing, "usr_crashed", 2);
      await eventually(() => !crashing.running(), "the relay stopped by its failpoint");
      expect(crashing.stats()).toMatchObject({ published: 1 });
      expect(await outboxOf(svc.db, "usr_crashed")).toEqual(
        envelopes.map((envelope) => ({ id: envelope.id, sent: false, held: true })),
      );

      const successor = svc.relay();
      successor.start();
      await eventually(async () => (await svc.unsent()) === 0, "the held rows published after the hold");
      await successor.stop();
      await crashing.stop();
      // The first was published twice: the bus recognised the repeat.
      expect(successor.stats()).toMatchObject({ published: 1, duplicates: 1 });
    },
  );

  it.skipIf(skip)(
    "a failed publish of a hand-off: the events before it are sent, it waits its backoff, the rest go to the relay's runs",
    async () => {
      const { bus } = rig();
      const svc = await createTestService(rig());
      let publishes = 0;
      // The bus refuses the second publish, once: the relay must not wait out a failure per row.
      const flakyBus = new Proxy(bus, {
        get(target, property) {
          if (property === "publish")
            return (envelope: EventEnvelope) => {
              publishes += 1;
              if (publishes === 2) return Promise.reject(new Error("bus unavailable"));
              return target.publish(envelope);
            };
          const value: unknown = Reflect.get(target, property);
          return typeof value === "function" ? value.bind(target) : value;
        },
      }) as EventBus;
      // A hold longer than the test: only the give-back lets the relay's runs publish the rest.
      const relay = svc.relay({
        bus: flakyBus,
        handOffHoldMs: 600_000,
        retryBackoffMs: () => 300,
        idleMs: 50,
        minIdleMs: 50,
      });
      relay.start();
      const envelopes = await commitThrough(svc, relay, "usr_flaky", 3);

      await eventually(async () => (await svc.unsent()) === 0, "every event published in the end");
      await relay.stop();
      expect(relay.stats()).toMatchObject({ published: 3, duplicates: 0, failures: 1 });
      const failed = await svc.db
        .selectFrom("outbox")
        .select(["attempts", "last_error"])
        .where("id", "=", envelopes[1]!.id)
        .executeTakeFirstOrThrow();
      expect(failed.last_error).toBeNull(); // cleared when it was sent
      expect(Number(failed.attempts)).toBeGreaterThanOrEqual(1);
    },
  );

  it.skipIf(skip)("hands nothing over for a transaction that rolls back", async () => {
    const svc = await createTestService(rig());
    const relay = svc.relay({ idleMs: 600_000, minIdleMs: 600_000 });
    relay.start();
    const unitOfWork = createUnitOfWork(svc.db, relay.committedEvents);
    await expect(
      unitOfWork.run(async (trx) => {
        await recordEvents(trx, [
          eventFor(
            svc.spec,
            { account: { id: "usr_rolled" } },
            { aggregateId: "usr_rolled", aggregateVersion: 1, occurredAt: new Date() },
          ),
        ]);
        throw new Error("refused after recording");
      }),
    ).rejects.toThrow("refused after recording");
    await relay.stop();
    expect(relay.stats()).toMatchObject({ published: 0, failures: 0 });
    expect(await outboxOf(svc.db, "usr_rolled")).toEqual([]);
  });
});
