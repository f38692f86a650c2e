/**
 * Wake-ups on commit: the relay publishes when poked, without its poll, and a consumer's
 * after-commit callbacks run once the effect committed (never for an attempt that rolled
 * back). The polls are switched off with a clock whose sleeps never end, so only a wake-up
 * can make progress; the checks wait for progress, they never time anything.
 */
import type { Clock } from "@petri/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestService,
  inProcessPgliteRig,
  inProcessPgRig,
  natsPgRig,
  type Rig,
  type RigFactory,
} from "./support/rig.js";
import { clusterInfraReady } from "./support/testkit.js";
import { eventually } from "./support/wait.js";

const factories: RigFactory[] = [natsPgRig, inProcessPgliteRig, inProcessPgRig];
const clusterReady = await clusterInfraReady();
const HOUR_MS = 3_600_000;

/** Real time for now(), but a sleep only ends when aborted: no poll ever fires. */
function pollFreeClock(): Clock & { sleeps: number } {
  const clock = {
    sleeps: 0,
    now: () => new Date(),
    sleep(_ms: number, signal?: AbortSignal): Promise<void> {
      clock.sleeps += 1;
      return new Promise((resolve) => {
        if (signal?.aborted) return resolve();
        signal?.addEventListener("abort", () => resolve(), { once: true });
      });
    },
  };
  return clock;
}

describe.each(factories)("$name", (factory) => {
  const skip = factory.kind !== "in-process" && !clusterReady;
  let rig: Rig;

  beforeAll(async () => {
    if (!skip) rig = await factory.create();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it.skipIf(skip)(
    "the relay publishes a committed event when poked, without waiting for its poll",
    async () => {
      const svc = await createTestService(rig);
      const clock = pollFreeClock();
      const relay = svc.relay({ clock, idleMs: HOUR_MS });
      relay.start();
      try {
        await eventually(() => clock.sleeps > 0, "the relay idles on an empty outbox");
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
      const svc = await createTestService(rig);
      const seenAfterCommit: Array<Promise<number>> = [];
      let attempts = 0;
      let applied = 0;
      const runner = svc.runner("wake", {
        afterApplied: () => (applied += 1),
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
        await eventually(() => applied === 1, "the event applied on its second attempt");
        expect(attempts).toBe(2);
        expect(seenAfterCommit).toHaveLength(1);
        expect(await seenAfterCommit[0]).toBe(1);
      } finally {
        await runner.stop();
      }
    },
  );
});
