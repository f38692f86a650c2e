/**
 * A successful attempt is recorded without the account's lock. The account is locked while a
 * failure is recorded, an account is paused or resumed, or a secret rotates; a success does
 * not depend on any of that, so it must neither wait for them nor, by holding the account,
 * keep the consumer from scheduling the account's next delivery (which holds the account in
 * share mode): one requester's webhooks would otherwise go out one transaction at a time.
 *
 * PostgreSQL only: PGlite has one connection, so a second transaction cannot hold a lock.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { ENGINES, type Notifications, experiment, experimentEvent, requester } from "./support/harness.js";
import { notificationsOfBlock } from "./support/block.js";
import type { TestReceiver } from "./support/receiver.js";

describe.each(ENGINES.filter((engine) => engine === "pg"))("recording a success (%s)", (engine) => {
  let notifications: Notifications;
  let receiver: TestReceiver;
  notificationsOfBlock(engine, (block) => {
    ({ notifications, receiver } = block);
    notifications.resolver.set("lock.hooks.test", ["127.0.0.1"]);
  });

  /** Resolves once some statement of this database waits for a lock; stops looking when `done`. */
  async function someoneWaitsOnALock(done: { value: boolean }): Promise<void> {
    while (!done.value) {
      const { rows } = await sql<{ waiting: number }>`
        select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(notifications.db);
      if (rows[0]!.waiting > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it("succeeds while another transaction holds the account's lock", async () => {
    const account = requester();
    const fixture = experiment(account.accountId, receiver.url("lock.hooks.test"));
    await notifications.deliver(experimentEvent(fixture, "claimed"));

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = notifications.db.transaction().execute(async (trx) => {
      await trx
        .selectFrom("webhook_accounts")
        .select("account_id")
        .where("account_id", "=", account.accountId)
        .forUpdate()
        .execute();
      locked();
      await released;
    });
    await lockTaken;

    const done = { value: false };
    const first = await Promise.race([
      notifications.service.deliverDue().then(() => "recorded" as const),
      someoneWaitsOnALock(done).then(() => "waited for the account" as const),
    ]);
    done.value = true;
    release();
    await holder;
    expect(first).toBe("recorded");

    const delivery = await notifications.db
      .selectFrom("webhook_deliveries")
      .select(["status", "attempt_count", "lease_owner"])
      .where("experiment_id", "=", fixture.id)
      .executeTakeFirstOrThrow();
    expect(delivery).toEqual({ status: "succeeded", attempt_count: 1, lease_owner: null });
    expect(receiver.requests).toHaveLength(1);
  });
});
