/**
 * One slow receiver never delays the others (reliability test plan W6): receivers that
 * drip their answer one byte per second hold their own connections until the 5-second
 * deadline, while a healthy receiver's deliveries, due after theirs, go through at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ENGINES,
  type Notifications,
  START,
  eventually,
  experiment,
  experimentEvent,
  requester,
} from "./support/harness.js";
import { notificationsOfBlock } from "./support/block.js";
import { TestReceiver } from "./support/receiver.js";

const TARPITS = 10;
const EVENTS_PER_TARPIT = 8;
const HEALTHY_EVENTS = 20;

describe.each(ENGINES)("isolation from slow receivers (%s)", (engine) => {
  let notifications: Notifications;
  let healthy: TestReceiver;
  let tarpit: TestReceiver;

  beforeAll(async () => {
    tarpit = await TestReceiver.start();
    tarpit.answer = () => ({ tarpit: true });
  });
  // Registered before the block's own hooks, so it runs after them: the tarpit closes last.
  afterAll(async () => {
    await tarpit?.close();
  });
  notificationsOfBlock(
    engine,
    (block) => {
      ({ notifications, receiver: healthy } = block);
      notifications.resolver.set("healthy.hooks.test", ["127.0.0.1"]);
      for (let i = 0; i < TARPITS; i += 1)
        notifications.resolver.set(`tarpit-${i}.hooks.test`, ["127.0.0.1"]);
    },
    // 10 tarpit receivers x 4 connections leave 8 of the 48 slots for everyone else.
    { delivery: { maxInFlight: 48, perHost: 4 } },
  );

  it("delivers to a healthy receiver while tarpits hold their own slots until the deadline", async () => {
    // The tarpits' deliveries fall due first, the healthy receiver's a millisecond later.
    await notifications.deliver(
      ...Array.from({ length: TARPITS * EVENTS_PER_TARPIT }, (_, i) =>
        experimentEvent(
          experiment(requester().accountId, tarpit.url(`tarpit-${i % TARPITS}.hooks.test`)),
          "claimed",
        ),
      ),
    );
    await notifications.clock.set(START.getTime() + 1);
    await notifications.deliver(
      ...Array.from({ length: HEALTHY_EVENTS }, () =>
        experimentEvent(experiment(requester().accountId, healthy.url("healthy.hooks.test")), "claimed"),
      ),
    );

    const started = Date.now();
    const run = notifications.service.deliverDue();
    await eventually(() => healthy.requests.length === HEALTHY_EVENTS, "every healthy delivery", 30_000);
    const tookMs = Date.now() - started;
    // Every healthy delivery finished while every tarpit attempt was still waiting for its
    // deadline: none of them waited for a tarpit's slot, and no tarpit got more than its 4.
    const tarpitAttempts = await notifications.db
      .selectFrom("webhook_attempts")
      .innerJoin("webhook_deliveries", "webhook_deliveries.id", "webhook_attempts.delivery_id")
      .select("webhook_attempts.delivery_id")
      .where("webhook_deliveries.host_key", "like", "tarpit-%")
      .execute();
    console.info(`[W6] ${HEALTHY_EVENTS} healthy deliveries in ${tookMs} ms next to ${TARPITS} tarpits`);
    expect(tarpitAttempts).toEqual([]);
    expect(notifications.service.worker.activeAttempts).toBeGreaterThanOrEqual(TARPITS * 4);
    expect(tarpit.requests.length).toBeLessThanOrEqual(TARPITS * 4);

    // The deadline then fails the tarpits' first attempts (the rest wait their turn, one
    // attempt at a time per unresponsive receiver, until the service stops).
    await eventually(
      async () =>
        (
          await notifications.db
            .selectFrom("webhook_deliveries")
            .select("id")
            .where("host_key", "like", "tarpit-%")
            .where("last_error", "=", "connection_failed")
            .execute()
        ).length >=
        TARPITS * 4,
      "the first tarpit attempts cut at the deadline",
      15_000,
    );
    const healthyRows = await notifications.db
      .selectFrom("webhook_deliveries")
      .select("status")
      .where("host_key", "like", "healthy.%")
      .execute();
    expect(healthyRows.map((row) => row.status)).toEqual(Array(HEALTHY_EVENTS).fill("succeeded"));
    await notifications.stop();
    expect(await run).toBeGreaterThanOrEqual(TARPITS * 4 + HEALTHY_EVENTS);
  }, 60_000);
});
