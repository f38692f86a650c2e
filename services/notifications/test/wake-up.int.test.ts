/**
 * The delivery worker is woken by the commit of the consumer transaction that scheduled the
 * delivery, not by its poll: with the safety poll switched off (an hour), attempt 1 still
 * reaches the receiver. A wake-up sent before that commit would find no row and be lost.
 */
import { describe, expect, it } from "vitest";
import {
  ENGINES,
  type Notifications,
  eventually,
  experiment,
  experimentEvent,
  requester,
} from "./support/harness.js";
import { notificationsOfBlock } from "./support/block.js";
import type { TestReceiver } from "./support/receiver.js";

const HOUR_MS = 3_600_000;

describe.each(ENGINES)("delivery worker wake-up (%s)", (engine) => {
  let notifications: Notifications;
  let receiver: TestReceiver;
  notificationsOfBlock(
    engine,
    (block) => {
      ({ notifications, receiver } = block);
      notifications.resolver.set("wake.hooks.test", ["127.0.0.1"]);
    },
    { background: true, delivery: { pollMs: HOUR_MS, minPollMs: HOUR_MS } },
  );

  it("makes attempt 1 once the consumer committed the delivery, without waiting for a poll", async () => {
    for (let round = 0; round < 3; round += 1) {
      const fixture = experiment(requester().accountId, receiver.url("wake.hooks.test"));
      await notifications.deliver(experimentEvent(fixture, "claimed"));
      await eventually(
        async () =>
          (
            await notifications.db
              .selectFrom("webhook_deliveries")
              .select("status")
              .where("experiment_id", "=", fixture.id)
              .executeTakeFirst()
          )?.status === "succeeded",
        `delivery ${round + 1} attempted`,
      );
    }
    expect(receiver.requests).toHaveLength(3);
  });
});
