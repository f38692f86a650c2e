/**
 * Retention of webhook delivery attempts: the runtime's pruner deletes attempts older than
 * PETRI_RETENTION_WEBHOOK_ATTEMPTS_HOURS (default 30 days); the delivery keeps its count.
 */
import { DEFAULT_RETENTION } from "@petri/events";
import { describe, expect, it } from "vitest";
import {
  ENGINES,
  type Notifications,
  START,
  accountRegistered,
  experiment,
  experimentEvent,
  requester,
} from "./support/harness.js";
import { notificationsOfBlock } from "./support/block.js";
import type { TestReceiver } from "./support/receiver.js";

describe.each(ENGINES)("webhook attempt retention (%s)", (engine) => {
  let notifications: Notifications;
  let receiver: TestReceiver;
  notificationsOfBlock(engine, (block) => {
    ({ notifications, receiver } = block);
    receiver.answer = () => ({ status: 200 });
  });

  it("deletes attempts past retention and keeps younger ones", async () => {
    await notifications.clock.set(START);
    const account = requester();
    await notifications.deliver(accountRegistered(account.accountId, "ada@example.org"));
    const old = experiment(account.accountId, `https://127.0.0.1:${receiver.port}/old`);
    await notifications.deliver(experimentEvent(old, "claimed"));
    expect(await notifications.service.deliverDue()).toBe(1);

    const later = START.getTime() + DEFAULT_RETENTION.webhookAttemptsMs - 60_000;
    await notifications.clock.set(later);
    const young = experiment(account.accountId, `https://127.0.0.1:${receiver.port}/young`);
    await notifications.deliver(experimentEvent(young, "claimed", new Date(later)));
    expect(await notifications.service.deliverDue()).toBe(1);

    const attemptsOf = async (experimentId: string) => {
      const delivery = await notifications.db
        .selectFrom("webhook_deliveries")
        .select(["id", "attempt_count"])
        .where("experiment_id", "=", experimentId)
        .executeTakeFirstOrThrow();
      const rows = await notifications.db
        .selectFrom("webhook_attempts")
        .select("number")
        .where("delivery_id", "=", delivery.id)
        .execute();
      return { count: delivery.attempt_count, rows: rows.length };
    };
    expect((await notifications.service.prune()).webhook_attempts).toBe(0);

    await notifications.clock.set(later + 2 * 60_000);
    expect((await notifications.service.prune()).webhook_attempts).toBe(1);
    expect(await attemptsOf(old.id)).toEqual({ count: 1, rows: 0 });
    expect(await attemptsOf(young.id)).toEqual({ count: 1, rows: 1 });
  });
});
