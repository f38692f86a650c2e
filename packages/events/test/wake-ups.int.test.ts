/**
 * Wake-ups on commit: the relay publishes when poked, without its poll, and a consumer's
 * after-commit callbacks run once the effect committed (never for an attempt that rolled
 * back). The polls are switched off (an hour, and a clock whose sleeps never end), so only a
 * wake-up can make progress; the checks wait for progress, they never time anything.
 */
import type { Clock } from "@petri/service-kit";
import { recordEvent } from "../src/record-event.js";
import { expect, it } from "vitest";
import {
  createTestService,
  inProcessPgliteRig,
  inProcessPgRig,
  natsPgRig,
  type RigFactory,
  describeOnRigs,
} from "./support/rig.js";
import { clusterInfraReady } from "./support/testkit.js";
import { eventually } from "./support/wait.js";

const factories: RigFactory[] = [natsPgRig, inProcessPgliteRig, inProcessPgRig];
const clusterReady = await clusterInfraReady();
const HOUR_MS = 3_600_000;

/** Real time for now(), but a sleep only ends when aborted: no timer on the clock ever fires. */
function pollFreeClock(): Clock {
  const clock = {
    now: () => new Date(),
    sleep(_ms: number, signal?: AbortSignal): Promise<void> {
      return new Promise((resolve) => {
        if (signal?.aborted) return resolve();
        signal?.addEventListener("abort", () => resolve(), { once: true });
      });
    },
  };
  return clock;
}

describeOnRigs(factories, clusterReady, ({ skip, rig }) => {
  it.skipIf(skip)(
    "the relay publishes a committed event when poked, without waiting for its poll",
    async () => {
      const svc = await createTestService(rig());
      const clock = pollFreeClock();
      const relay = svc.relay({ clock, idleMs: HOUR_MS, minIdleMs: HOUR_MS });
      relay.start();
      try {
        await eventually(() => relay.stats().looks > 0, "the relay looked at the empty outbox");
        await svc.commit(2);
        // Nothing pokes it and its poll never ends: the events stay in the outbox.
        expect(relay.stats().published).toBe(0);
        relay.poke();
        await eventually(async () => (await svc.unsent()) === 0, "the outbox drained after the poke");
        expect(relay.stats().published).toBe(2);
      } finally {
        await relay.stop();
      }
    },
  );

  it.skipIf(skip)(
    "a consumer's after-commit callbacks run once the effect committed, never for a rolled-back attempt",
    async () => {
      const svc = await createTestService(rig());
      const seenAfterCommit: Array<Promise<number>> = [];
      let attempts = 0;
      const runner = svc.runner("wake", {
        subscriptions: [
          {
            stream: svc.stream,
            filterSubject: svc.stream.subjects[0]!,
            handlers: {
              [svc.spec.schema.typeName]: async ({ trx, envelope, afterCommit }) => {
                attempts += 1;
                await trx
                  .insertInto("effects")
                  .values({ consumer: "wake", event_id: envelope.id, aggregate_id: envelope.aggregateId })
                  .execute();
                afterCommit(() => {
                  // Outside the transaction: only a committed effect is visible here.
                  seenAfterCommit.push(
                    svc.db
                      .selectFrom("effects")
                      .select("event_id")
                      .where("event_id", "=", envelope.id)
                      .execute()
                      .then((rows) => rows.length),
                  );
                });
                if (attempts === 1) throw new Error("first attempt fails after registering its callback");
              },
            },
          },
        ],
      });
      runner.start();
      const relay = svc.relay();
      try {
        await svc.commit(1);
        await svc.drain(relay);
        await eventually(() => runner.stats().applied === 1, "the event applied on its second attempt");
        expect(attempts).toBe(2);
        expect(seenAfterCommit).toHaveLength(1);
        expect(await seenAfterCommit[0]).toBe(1);
      } finally {
        await runner.stop();
      }
    },
  );

  it.skipIf(skip)(
    "a consumer wakes the outbox relay after a handler's transaction that recorded events, and only then",
    async () => {
      const svc = await createTestService(rig());
      // Rows of derived events, read at each wake-up: only committed ones are visible there.
      const outboxSeenAtWake: Array<Promise<number>> = [];
      const runner = svc.runner("echo", {
        afterEventsRecorded: () =>
          outboxSeenAtWake.push(
            svc.db
              .selectFrom("outbox")
              .select("id")
              .where("aggregate_id", "like", "derived_%")
              .execute()
              .then((rows) => rows.length),
          ),
        subscriptions: [
          {
            stream: svc.stream,
            filterSubject: svc.stream.subjects[0]!,
            handlers: {
              [svc.spec.schema.typeName]: async ({ trx, envelope }) => {
                // Only "echo_" aggregates lead to a new event; the derived one leads to none.
                if (!envelope.aggregateId.startsWith("echo_")) return;
                const aggregateId = `derived_${envelope.aggregateId}`;
                const meta = { aggregateId, aggregateVersion: 1, occurredAt: new Date() };
                await recordEvent(trx, svc.spec, { account: { id: aggregateId } }, meta);
                await recordEvent(
                  trx,
                  svc.spec,
                  { account: { id: aggregateId } },
                  { ...meta, aggregateVersion: 2 },
                );
              },
            },
          },
        ],
      });
      runner.start();
      const relay = svc.relay();
      try {
        await svc.commit(1, { aggregatePrefix: "quiet" });
        await svc.drain(relay);
        await eventually(() => runner.stats().applied === 1, "the quiet event applied");
        expect(outboxSeenAtWake).toHaveLength(0);
        await svc.commit(1, { aggregatePrefix: "echo" });
        // The drain may go on to publish the derived events too, if the echo's handler committed
        // them before the drain looked at the outbox again: so at least 2, not exactly 2.
        await svc.drain(relay);
        await eventually(() => runner.stats().applied >= 2, "the echo event applied");
        await svc.drain(relay);
        await eventually(() => runner.stats().applied === 4, "the two derived events applied");
        // One wake-up for the transaction that recorded two events, none for the others.
        expect(outboxSeenAtWake).toHaveLength(1);
        expect(await outboxSeenAtWake[0]).toBe(2);
      } finally {
        await runner.stop();
      }
    },
  );
});
