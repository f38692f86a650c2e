/**
 * Experiment events become signed webhook deliveries: the body and both signatures as a
 * receiver verifies them (independently of src/), the event names and thin data of docs/api.md,
 * the preferences, one delivery per event, refused URLs, and the address checks at connect
 * time (reliability test plan S2, S3).
 */
import { metricSampler } from "@petri/fixtures/service-kit";
import { metricsRegistry } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENTS } from "@petri/contracts/vocabulary";
import {
  AddressAllowlist,
  type Backend,
  ENGINES,
  type Notifications,
  experiment,
  experimentEvent,
  requester,
  startNotifications,
} from "./support/harness.js";
import { notificationsOfBlock } from "./support/block.js";
import { TestReceiver } from "./support/receiver.js";
import { verifyServiceSignature, verifyStandardSignature } from "./support/verify.js";

const metricSample = metricSampler(metricsRegistry);

describe.each(ENGINES)("webhook deliveries (%s)", (engine) => {
  let backend: Backend;
  let notifications: Notifications;
  let receiver: TestReceiver;
  notificationsOfBlock(engine, (block) => {
    ({ notifications, receiver, backend } = block);
    notifications.resolver.set("r1.hooks.test", ["127.0.0.1"]);
  });

  const deliveriesOf = (experimentId: string) =>
    notifications.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("experiment_id", "=", experimentId)
      .orderBy("created_at")
      .execute();

  it("POSTs each wanted event once, signed both ways over the exact bytes", async () => {
    const account = requester();
    const fixture = experiment(account.accountId, receiver.url("r1.hooks.test"));
    const claimed = experimentEvent(fixture, "claimed");
    const succeededBefore = await metricSample("petri_webhook_attempts_total", { outcome: "succeeded" });
    const firstAttemptsBefore = await metricSample("petri_webhook_first_attempt_delay_seconds_count");
    await notifications.deliver(claimed);
    expect(await metricSample("petri_webhook_queue_deliveries", { state: "due" })).toBeGreaterThanOrEqual(1);
    expect(await notifications.service.deliverDue()).toBe(1);
    expect(await metricSample("petri_webhook_attempts_total", { outcome: "succeeded" })).toBe(
      succeededBefore + 1,
    );
    expect(await metricSample("petri_webhook_first_attempt_delay_seconds_count")).toBe(
      firstAttemptsBefore + 1,
    );

    const [delivery] = await deliveriesOf(fixture.id);
    expect(delivery).toMatchObject({
      status: "succeeded",
      attempt_count: 1,
      last_response_code: 200,
      event: "claimed",
    });
    const [received] = receiver.withId(delivery!.id);
    expect(received!.path).toBe("/petri");
    expect(received!.headers["content-type"]).toBe("application/json");
    expect(received!.body.toString("utf8")).toBe(delivery!.payload);

    // The account obtains its secret once; the receiver verifies with it, not with our code.
    const { secret } = await notifications.as(account).createWebhookSecret({});
    const now = Number(received!.headers["webhook-timestamp"]);
    expect(now).toBe(Math.floor(notifications.clock.now().getTime() / 1000));
    expect(verifyServiceSignature(secret, received!.body, received!.headers)).toBe(true);
    expect(verifyStandardSignature(secret, received!.body, received!.headers, now)).toBe(true);
    // W2: a receiver with a 5-minute tolerance rejects the same request replayed later.
    expect(verifyStandardSignature(secret, received!.body, received!.headers, now + 299)).toBe(true);
    expect(verifyStandardSignature(secret, received!.body, received!.headers, now + 301)).toBe(false);
    expect(verifyStandardSignature(secret, received!.body, received!.headers, now - 301)).toBe(false);

    expect(JSON.parse(received!.body.toString("utf8"))).toEqual({
      event: "claimed",
      experiment_id: fixture.id,
      timestamp: "2026-03-02T10:00:00.000Z",
      data: {
        status: "claimed",
        version: 2,
        operator: { id: "op_1", lab_name: "Lab One" },
        claimed_at: "2026-03-02T10:00:00.000Z",
        deadline: "2026-03-02T10:00:00.000Z",
        links: { experiment: `/experiments/${fixture.id}` },
      },
    });

    // A redelivered event (the bus delivers at least once) adds nothing.
    await notifications.bus.publish(claimed);
    await notifications.deliver(experimentEvent(fixture, "started"));
    await notifications.service.deliverDue();
    expect((await deliveriesOf(fixture.id)).map((row) => row.event).sort()).toEqual(["claimed", "started"]);
  });

  it("names the six docs/api.md events and keeps their data thin", async () => {
    const fixture = experiment(requester().accountId, receiver.url("r1.hooks.test"));
    await notifications.deliver(...WEBHOOK_EVENTS.map((event) => experimentEvent(fixture, event)));
    await notifications.service.deliverDue();
    const rows = await deliveriesOf(fixture.id);
    expect(rows.map((row) => row.event).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    const bodies = Object.fromEntries(
      rows.map((row) => [row.event, JSON.parse(receiver.withId(row.id)[0]!.body.toString("utf8"))]),
    );
    expect(bodies.completed.data).toMatchObject({
      status: "pending_approval",
      results_available: true,
      file_count: 3,
      links: { results: `/experiments/${fixture.id}/results` },
    });
    expect(bodies.started.data).toMatchObject({
      status: "in_progress",
      started_at: "2026-03-02T10:00:00.000Z",
    });
    expect(bodies.issue.data.issue).toMatchObject({ severity: "high", description: "Plate reader offline" });
    expect(bodies.approved.data).toMatchObject({ status: "completed", rating: 5, on_time: true });
    expect(bodies.disputed.data.dispute).toMatchObject({
      reason: "results_incomplete",
      raised_from: "pending_approval",
    });
    for (const row of rows) {
      expect(Buffer.byteLength(row.payload)).toBeLessThan(2_048);
      expect(row.payload).not.toContain("request");
    }
    // Versions let a receiver order events that arrive out of order.
    expect(rows.map((row) => Number(row.experiment_version)).sort((a, b) => a - b)).toEqual([
      2, 3, 4, 5, 6, 7,
    ]);
  });

  it("sends only the events the request lists, and nothing without a webhook_url", async () => {
    const picky = experiment(requester().accountId, receiver.url("r1.hooks.test"), ["completed"]);
    const silent = experiment(requester().accountId);
    await notifications.deliver(
      experimentEvent(picky, "claimed"),
      experimentEvent(picky, "completed"),
      experimentEvent(silent, "claimed"),
    );
    expect((await deliveriesOf(picky.id)).map((row) => row.event)).toEqual(["completed"]);
    expect(await deliveriesOf(silent.id)).toEqual([]);
  });

  it("records a refused URL as a failed delivery with a clear reason, and never connects", async () => {
    // A receiver of its own, listening on the refused address itself: any connection it
    // counts was made to that URL (the shared receiver also sees other tests' late sockets).
    const refused = await TestReceiver.start("127.0.0.2");
    try {
      const fixture = experiment(requester().accountId, refused.url());
      const plain = experiment(requester().accountId, "http://hooks.example.com/petri");
      await notifications.deliver(experimentEvent(fixture, "claimed"), experimentEvent(plain, "claimed"));
      await notifications.service.deliverDue();
      for (const id of [fixture.id, plain.id]) {
        const [row] = await deliveriesOf(id);
        expect(row).toMatchObject({
          status: "failed",
          attempt_count: 0,
          last_error: "url_not_allowed",
          next_attempt_at: null,
        });
      }
      expect(refused.connections).toBe(0);
    } finally {
      await refused.close();
    }
  });

  it("S2: checks the addresses again at connect time (DNS changed since registration)", async () => {
    const account = requester();
    const resolver = notifications.resolver;
    resolver.set("moved.hooks.test", ["93.184.216.34"]);
    // Registration: the name resolves to a public address and is accepted.
    await notifications.as(account).validateWebhookUrl({ url: receiver.url("moved.hooks.test") });
    // Then it points at loopback, which this replica has no allowance for.
    const strict = await startNotifications(backend.database, {
      allowlist: AddressAllowlist.empty,
      resolver,
      clock: notifications.clock,
      kek: notifications.kek,
    });
    try {
      resolver.set("moved.hooks.test", ["127.0.0.1"]);
      const before = receiver.connections;
      const fixture = experiment(account.accountId, receiver.url("moved.hooks.test"));
      await strict.deliver(experimentEvent(fixture, "claimed"));
      await strict.service.deliverDue();
      const [row] = await deliveriesOf(fixture.id);
      expect(row).toMatchObject({
        status: "pending",
        attempt_count: 1,
        last_error: "connection_failed",
        last_response_code: null,
      });
      expect(receiver.connections).toBe(before);

      // Positive control: the replica allowed 127.0.0.1/32 connects, once.
      await notifications.clock.advance(60_000);
      await notifications.service.deliverDue();
      expect((await deliveriesOf(fixture.id))[0]).toMatchObject({ status: "succeeded", attempt_count: 2 });
      expect(receiver.withId(row!.id)).toHaveLength(1);
    } finally {
      await strict.stop();
    }
  });

  it("S3: connects to the address it checked, even when DNS answers differently each time", async () => {
    const decoy = await TestReceiver.start("127.0.0.2");
    try {
      // 127.0.0.1 is allowed (test allowlist), 127.0.0.2 is plain loopback: refused.
      let query = 0;
      notifications.resolver.set("rebind.hooks.test", () =>
        query++ % 2 === 0 ? ["127.0.0.2"] : ["127.0.0.1"],
      );
      const fixture = experiment(requester().accountId, `https://rebind.hooks.test:${receiver.port}/petri`);
      await notifications.deliver(experimentEvent(fixture, "claimed"));
      await notifications.service.deliverDue(); // lookup 0 answers 127.0.0.2: refused, no connection
      const [row] = await deliveriesOf(fixture.id);
      expect(row).toMatchObject({ status: "pending", last_error: "connection_failed" });
      await notifications.clock.advance(60_000);
      await notifications.service.deliverDue(); // lookup 1 answers 127.0.0.1: connects there
      expect((await deliveriesOf(fixture.id))[0]).toMatchObject({ status: "succeeded", attempt_count: 2 });
      expect(decoy.connections).toBe(0);
      expect(receiver.withId(row!.id)).toHaveLength(1);
      // One lookup per connection: the answer that was checked is the one used.
      expect(notifications.resolver.lookups.filter((name) => name === "rebind.hooks.test")).toHaveLength(2);
    } finally {
      await decoy.close();
    }
  });

  it("lists an account's deliveries, newest first, per experiment, and hides them from others", async () => {
    const account = requester();
    const first = experiment(account.accountId, receiver.url("r1.hooks.test"));
    const second = experiment(account.accountId, receiver.url("r1.hooks.test"));
    await notifications.deliver(experimentEvent(first, "claimed"));
    await notifications.clock.advance(1_000);
    await notifications.deliver(experimentEvent(second, "claimed"), experimentEvent(second, "started"));
    await notifications.service.deliverDue();
    const client = notifications.as(account);
    const page = await client.listWebhookDeliveries({ limit: 2 });
    expect(page.total).toBe(3n);
    expect(page.deliveries).toHaveLength(2);
    expect(page.hasMore).toBe(true);
    const rest = await client.listWebhookDeliveries({ limit: 2, cursor: page.nextCursor });
    expect(rest.deliveries.map((d) => d.experimentId)).toEqual([first.id]);
    expect(rest.hasMore).toBe(false);
    const forSecond = await client.listWebhookDeliveries({ experimentId: second.id });
    expect(forSecond.deliveries.map((d) => d.event).sort()).toEqual(["claimed", "started"]);
    expect(forSecond.deliveries[0]).toMatchObject({
      status: "succeeded",
      lastResponseCode: 200,
      attemptCount: 1,
    });

    const one = await client.getWebhookDelivery({ deliveryId: forSecond.deliveries[0]!.id });
    expect(one.delivery?.attempts).toHaveLength(1);
    expect(one.delivery?.attempts[0]).toMatchObject({
      number: 1,
      trigger: "event",
      outcome: "succeeded",
      responseCode: 200,
    });
    const stranger = notifications.as(requester());
    expect((await stranger.listWebhookDeliveries({ experimentId: second.id })).deliveries).toEqual([]);
  });
});
