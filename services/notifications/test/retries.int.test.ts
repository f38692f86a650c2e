/**
 * The retry schedule under an injected clock (reliability test plan W3, W4, W5, W10): exact
 * attempt times, one webhook-id with fresh timestamps, the pause after the fifth failure
 * with exactly one e-mail and nothing after it, then resume and replay.
 */
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import {
  ENGINES,
  type Notifications,
  START,
  accountRegistered,
  eventually,
  experiment,
  experimentEvent,
  rejection,
  requester,
  staff,
} from "./support/harness.js";
import { notificationsOfBlock } from "./support/block.js";
import { TestReceiver } from "./support/receiver.js";
import { verifyServiceSignature, verifyStandardSignature } from "./support/verify.js";

const MINUTE = 60_000;

describe.each(ENGINES)("retries, pause and resume (%s)", (engine) => {
  let notifications: Notifications;
  let receiver: TestReceiver;
  /** Paths the receiver fails with 500 (the rest answer 200). */
  const failing = new Set<string>();
  notificationsOfBlock(engine, (block) => {
    ({ notifications, receiver } = block);
    receiver.answer = (request) => (failing.has(request.path) ? { status: 500 } : { status: 200 });
  });

  /** Sets the clock to `at` (ms since START) and runs what is due. */
  async function at(offsetMs: number): Promise<number> {
    await notifications.clock.set(START.getTime() + offsetMs);
    return notifications.service.deliverDue();
  }

  const delivery = (experimentId: string) =>
    notifications.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("experiment_id", "=", experimentId)
      .executeTakeFirstOrThrow();
  const sentMail = (accountId: string) =>
    notifications.db.selectFrom("sent_mail").selectAll().where("account_id", "=", accountId).execute();

  it("W4: attempts at 0, 1, 6, 36 and 156 minutes, then pauses with exactly one e-mail and nothing after", async () => {
    await notifications.clock.set(START);
    const account = requester();
    const path = `/w4-${account.accountId}`;
    failing.add(path);
    await notifications.deliver(accountRegistered(account.accountId, "ada@example.org"));
    const fixture = experiment(account.accountId, `https://127.0.0.1:${receiver.port}${path}`);
    await notifications.deliver(experimentEvent(fixture, "claimed"));

    const schedule = [0, 1, 6, 36, 156].map((minutes) => minutes * MINUTE);
    for (const [index, offset] of schedule.entries()) {
      if (index > 0) expect(await at(offset - 1)).toBe(0); // not a millisecond early
      expect(await at(offset)).toBe(1);
    }
    const row = await delivery(fixture.id);
    expect(row).toMatchObject({
      status: "paused",
      attempt_count: 5,
      cycle_failures: 5,
      next_attempt_at: null,
    });
    const attempts = await notifications.db
      .selectFrom("webhook_attempts")
      .selectAll()
      .where("delivery_id", "=", row.id)
      .orderBy("number")
      .execute();
    expect(attempts.map((a) => a.attempted_at.getTime() - START.getTime())).toEqual(schedule);
    expect(attempts.every((a) => a.response_code === 500 && a.error === "http_status")).toBe(true);

    // W3: one webhook-id, five distinct timestamps, each signature verifying.
    const received = receiver.requests.filter((request) => request.path === path);
    expect(received).toHaveLength(5);
    expect(new Set(received.map((request) => request.headers["webhook-id"]))).toEqual(new Set([row.id]));
    expect(
      received.map((request) => Number(request.headers["webhook-timestamp"]) * 1000 - START.getTime()),
    ).toEqual(schedule);
    const { secret } = await notifications.as(account).createWebhookSecret({});
    for (const request of received) {
      expect(verifyServiceSignature(secret, request.body, request.headers)).toBe(true);
      expect(
        verifyStandardSignature(
          secret,
          request.body,
          request.headers,
          Number(request.headers["webhook-timestamp"]),
        ),
      ).toBe(true);
    }

    const settings = (await notifications.as(account).getWebhookSettings({})).settings!;
    expect(settings).toMatchObject({ paused: true, pausedByDeliveryId: row.id, pausedDeliveries: 1n });
    expect(await notifications.service.dispatchMail()).toBe(1);
    const mails = await sentMail(account.accountId);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to_address: "ada@example.org",
      kind: "webhooks_paused",
      transport: "table",
    });
    expect(mails[0]!.text).toContain(row.id);

    // 72 more hours: no attempt, no second e-mail; a new event while paused is held, not sent.
    await notifications.deliver(experimentEvent(fixture, "started"));
    for (let hour = 3; hour <= 75; hour += 1) expect(await at(hour * 60 * MINUTE)).toBe(0);
    expect(await notifications.service.dispatchMail()).toBe(0);
    expect(await sentMail(account.accountId)).toHaveLength(1);
    expect(receiver.requests.filter((request) => request.path === path)).toHaveLength(5);

    // Staff read the sent mail.
    const listed = await notifications.as(staff()).listSentMail({ accountId: account.accountId });
    expect(listed.mails.map((mail) => mail.to)).toEqual(["ada@example.org"]);
    expect((await rejection(notifications.as(account).listSentMail({}))).code).toBe(Code.PermissionDenied);
  });

  it("W3: four failures then a 2xx: five attempts, one webhook-id, succeeded", async () => {
    await notifications.clock.set(START);
    const account = requester();
    const path = `/w3-${account.accountId}`;
    let calls = 0;
    const previous = receiver.answer;
    receiver.answer = (request) =>
      request.path === path ? { status: ++calls <= 4 ? 503 : 204 } : previous(request);
    try {
      const fixture = experiment(account.accountId, `https://127.0.0.1:${receiver.port}${path}`);
      await notifications.deliver(experimentEvent(fixture, "completed"));
      for (const minutes of [0, 1, 6, 36, 156]) await at(minutes * MINUTE);
      expect(await delivery(fixture.id)).toMatchObject({
        status: "succeeded",
        attempt_count: 5,
        last_response_code: 204,
      });
      const received = receiver.requests.filter((request) => request.path === path);
      expect(new Set(received.map((request) => request.headers["webhook-id"])).size).toBe(1);
      expect(new Set(received.map((request) => request.headers["webhook-timestamp"])).size).toBe(5);
      expect((await notifications.as(account).getWebhookSettings({})).settings?.paused).toBe(false);
    } finally {
      receiver.answer = previous;
    }
  });

  it("W10: a pause holds every event; resume sends each one with its own webhook-id", async () => {
    await notifications.clock.set(START);
    const account = requester();
    const path = `/w10-${account.accountId}`;
    failing.add(path);
    const fixtures = Array.from({ length: 37 }, () =>
      experiment(account.accountId, `https://127.0.0.1:${receiver.port}${path}`),
    );
    await notifications.deliver(...fixtures.map((fixture) => experimentEvent(fixture, "claimed")));
    for (const minutes of [0, 1, 6, 36, 156]) await at(minutes * MINUTE);
    const rows = await notifications.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("account_id", "=", account.accountId)
      .execute();
    expect(rows).toHaveLength(37);
    expect(rows.every((row) => row.status === "paused")).toBe(true);
    const pauses = await notifications.db
      .selectFrom("webhook_accounts")
      .select("pauses")
      .where("account_id", "=", account.accountId)
      .executeTakeFirstOrThrow();
    expect(pauses.pauses).toBe(1);
    expect(
      await notifications.db
        .selectFrom("mail_outbox")
        .selectAll()
        .where("account_id", "=", account.accountId)
        .execute(),
    ).toHaveLength(1);

    // Replaying one while paused is refused: resume sends them all.
    const client = notifications.as(account);
    expect((await rejection(client.replayWebhookDelivery({ deliveryId: rows[0]!.id }))).code).toBe(
      Code.FailedPrecondition,
    );
    failing.delete(path);
    const before = receiver.requests.length;
    const resumed = await client.resumeWebhookDeliveries({});
    expect(resumed.resumedDeliveries).toBe(37n);
    expect(resumed.settings?.paused).toBe(false);
    // Resume wakes the replica's own delivery worker, which races an explicit deliverDue for
    // the rows (CI: it took 26 of the 37 first): every one is sent, by either of them.
    await eventually(
      async () => {
        await notifications.service.deliverDue();
        const statuses = await notifications.db
          .selectFrom("webhook_deliveries")
          .select("status")
          .where("account_id", "=", account.accountId)
          .execute();
        return statuses.every((row) => row.status === "succeeded");
      },
      "every resumed delivery sent",
      60_000,
    );
    // This test's path only: the receiver is shared, and a late request of another test's
    // delivery must not count here.
    const sent = receiver.requests.slice(before).filter((request) => request.path === path);
    expect(new Set(sent.map((request) => request.headers["webhook-id"]))).toEqual(
      new Set(rows.map((row) => row.id)),
    );
    const after = await client.listWebhookDeliveries({ limit: 100 });
    expect(after.deliveries.every((d) => d.status === "succeeded")).toBe(true);
    const detail = await client.getWebhookDelivery({ deliveryId: rows[0]!.id });
    const triggers = detail.delivery!.attempts.map((a) => a.trigger);
    expect(triggers.at(-1)).toBe("resume");
    expect(triggers.slice(0, -1).every((trigger) => trigger === "event")).toBe(true);
    expect(detail.delivery!.attempts.at(-1)?.outcome).toBe("succeeded");
    // Resuming again changes nothing.
    expect((await client.resumeWebhookDeliveries({})).resumedDeliveries).toBe(0n);
  });

  it("replays a delivery with the same webhook-id and body; only its account may", async () => {
    const account = requester();
    const fixture = experiment(account.accountId, `https://127.0.0.1:${receiver.port}/replay`);
    await notifications.deliver(experimentEvent(fixture, "approved"));
    await notifications.service.deliverDue();
    const row = await delivery(fixture.id);
    expect(row.status).toBe("succeeded");

    expect(
      (await rejection(notifications.as(requester()).replayWebhookDelivery({ deliveryId: row.id }))).code,
    ).toBe(Code.NotFound);
    expect(
      (await rejection(notifications.as(staff()).replayWebhookDelivery({ deliveryId: row.id }))).code,
    ).toBe(Code.PermissionDenied);
    const replayed = await notifications.as(account).replayWebhookDelivery({ deliveryId: row.id });
    expect(replayed.delivery).toMatchObject({ id: row.id, status: "pending" });
    expect(await notifications.service.deliverDue()).toBe(1);
    const received = receiver.withId(row.id);
    expect(received).toHaveLength(2);
    expect(received[0]!.body.equals(received[1]!.body)).toBe(true);
    const detail = await notifications.as(account).getWebhookDelivery({ deliveryId: row.id });
    expect(detail.delivery?.attempts.map((a) => [a.number, a.trigger, a.outcome])).toEqual([
      [1, "event", "succeeded"],
      [2, "replay", "succeeded"],
    ]);
    expect(
      (await rejection(notifications.as(account).getWebhookDelivery({ deliveryId: "msg_nope" }))).code,
    ).toBe(Code.NotFound);
  });

  it("W5: a redirect is a failure and is never followed", async () => {
    const target = await TestReceiver.start();
    try {
      const account = requester();
      const previous = receiver.answer;
      receiver.answer = (request) =>
        request.path === "/redirect"
          ? { status: 302, location: target.url("127.0.0.1", "/elsewhere") }
          : previous(request);
      const fixture = experiment(account.accountId, `https://127.0.0.1:${receiver.port}/redirect`);
      await notifications.deliver(experimentEvent(fixture, "claimed"));
      await notifications.service.deliverDue();
      receiver.answer = previous;
      expect(await delivery(fixture.id)).toMatchObject({
        status: "pending",
        last_response_code: 302,
        last_error: "redirect_not_followed",
      });
      expect(target.connections).toBe(0);
    } finally {
      await target.close();
    }
  });
});
