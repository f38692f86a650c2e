/**
 * POST /webhooks/test and URL registration (reliability test plan S1, S5): a signed sample
 * delivery, the SSRF corpus refused with invalid_webhook_url before anything connects, one
 * error class for every kind of connection failure, and a per-account rate limit.
 */
import { Code } from "@connectrpc/connect";
import { errorDetailOf } from "@petri/service-kit";
import { PUBLIC_CONTROLS, SSRF_CORPUS } from "@petri/fixtures/service-kit";
import { describe, expect, it } from "vitest";
import { TEST_CALLS_PER_MINUTE } from "../src/app/test-webhook.js";
import {
  AddressAllowlist,
  type Backend,
  ENGINES,
  type Notifications,
  START,
  TestResolver,
  rejection,
  requester,
  startNotifications,
} from "./support/harness.js";
import { notificationsOfBlock } from "./support/block.js";
import { TestReceiver } from "./support/receiver.js";
import { verifyServiceSignature, verifyStandardSignature } from "./support/verify.js";

describe.each(ENGINES)("webhook tests and URL registration (%s)", (engine) => {
  let backend: Backend;
  let notifications: Notifications;
  let receiver: TestReceiver;
  const resolver = new TestResolver();
  notificationsOfBlock(
    engine,
    (block) => ({ notifications, receiver, backend } = block),
    () => {
      for (const entry of [...SSRF_CORPUS, ...PUBLIC_CONTROLS]) {
        if (!entry.answers) continue;
        try {
          resolver.set(new URL(entry.url).hostname.toLowerCase().replace(/\.$/, ""), entry.answers);
        } catch {
          // Not a URL: nothing to resolve.
        }
      }
      resolver.set("t.hooks.test", ["127.0.0.1"]);
      return { resolver };
    },
  );

  /** A new minute, so each test starts with a full rate-limit window. */
  let minute = 0;
  async function nextMinute() {
    minute += 1;
    await notifications.clock.set(START.getTime() + minute * 60_000);
  }

  it("sends a signed sample of the event and reports the answer", async () => {
    await nextMinute();
    const account = requester();
    const result = await notifications
      .as(account)
      .testWebhook({ url: receiver.url("t.hooks.test", "/test-ok"), eventType: "completed" });
    expect(result).toMatchObject({ success: true, responseCode: 200, error: "" });
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(0);
    expect(result.responseTimeMs).toBeLessThan(5_000);
    const [request] = receiver.withId(result.webhookId);
    const body = JSON.parse(request!.body.toString("utf8"));
    expect(body).toMatchObject({
      event: "completed",
      data: { test: true, status: "pending_approval", results_available: true },
    });
    const { secret } = await notifications.as(account).createWebhookSecret({});
    const now = Math.floor(notifications.clock.now().getTime() / 1000);
    expect(verifyServiceSignature(secret, request!.body, request!.headers)).toBe(true);
    expect(verifyStandardSignature(secret, request!.body, request!.headers, now)).toBe(true);
    // Nothing is stored or retried for a test.
    expect(await notifications.db.selectFrom("webhook_deliveries").selectAll().execute()).toEqual([]);
  });

  it("reports a non-2xx answer as a failure with its status", async () => {
    await nextMinute();
    const previous = receiver.answer;
    receiver.answer = () => ({ status: 500 });
    try {
      const result = await notifications
        .as(requester())
        .testWebhook({ url: receiver.url("t.hooks.test"), eventType: "claimed" });
      expect(result).toMatchObject({ success: false, responseCode: 500, error: "http_status" });
    } finally {
      receiver.answer = previous;
    }
  });

  it("refuses an unknown event type", async () => {
    await nextMinute();
    const error = await rejection(
      notifications.as(requester()).testWebhook({ url: receiver.url("t.hooks.test"), eventType: "paid" }),
    );
    expect(error.code).toBe(Code.InvalidArgument);
    expect(errorDetailOf(error)?.fieldViolations[0]?.field).toBe("event_type");
  });

  it("S1: refuses every URL of the corpus with invalid_webhook_url, at registration and in a test, connecting nowhere", async () => {
    // The production policy: no test allowlist (this file's other replica allows 127.0.0.1).
    const production = await startNotifications(backend.database, {
      allowlist: AddressAllowlist.empty,
      resolver,
      kek: notifications.kek,
      clock: notifications.clock,
    });
    try {
      const before = receiver.connections;
      const client = production.as(requester());
      for (const entry of SSRF_CORPUS) {
        const error = await rejection(client.validateWebhookUrl({ url: entry.url }));
        expect(error.code, entry.url).toBe(Code.InvalidArgument);
        expect(errorDetailOf(error)?.reason, entry.url).toBe("invalid_webhook_url");
      }
      for (const [index, entry] of SSRF_CORPUS.entries()) {
        if (index % TEST_CALLS_PER_MINUTE === 0) await nextMinute();
        const error = await rejection(
          production.as(requester()).testWebhook({ url: entry.url, eventType: "claimed" }),
        );
        expect(errorDetailOf(error)?.reason, entry.url).toBe("invalid_webhook_url");
      }
      expect(receiver.connections).toBe(before);
      for (const entry of PUBLIC_CONTROLS) {
        const accepted = await client.validateWebhookUrl({ url: entry.url });
        expect(accepted.url, entry.url).toBe(entry.url);
      }
    } finally {
      await production.stop();
    }
  });

  it("S5: a refused address, a refused connection and a timeout all read connection_failed", async () => {
    await nextMinute();
    const account = requester();
    const client = notifications.as(account);
    // Registered while public, loopback (and not allowed) by the time it connects.
    let lookups = 0;
    resolver.set("flip.hooks.test", () => (lookups++ === 0 ? ["93.184.216.34"] : ["10.0.0.1"]));
    const refusedAddress = await client.testWebhook({
      url: `https://flip.hooks.test:${receiver.port}/`,
      eventType: "claimed",
    });
    // A port nothing listens on.
    const closed = await TestReceiver.start();
    const closedPort = closed.port;
    await closed.close();
    const refusedConnection = await client.testWebhook({
      url: `https://t.hooks.test:${closedPort}/`,
      eventType: "claimed",
    });
    // A receiver that never answers: cut at the 5-second deadline.
    const previous = receiver.answer;
    receiver.answer = () => ({ hang: true });
    const started = Date.now();
    const timedOut = await client.testWebhook({
      url: receiver.url("t.hooks.test", "/hang"),
      eventType: "claimed",
    });
    const waited = Date.now() - started;
    receiver.answer = previous;
    for (const result of [refusedAddress, refusedConnection, timedOut])
      expect({ success: result.success, responseCode: result.responseCode, error: result.error }).toEqual({
        success: false,
        responseCode: 0,
        error: "connection_failed",
      });
    // Cut by the 5-second deadline: not earlier, and not left hanging.
    expect(waited).toBeGreaterThanOrEqual(4_900);
    expect(waited).toBeLessThan(15_000);
  }, 20_000);

  it("allows ten tests per account per minute", async () => {
    await nextMinute();
    const account = requester();
    const client = notifications.as(account);
    for (let i = 0; i < TEST_CALLS_PER_MINUTE; i += 1)
      await client.testWebhook({ url: receiver.url("t.hooks.test"), eventType: "started" });
    const limited = await rejection(
      client.testWebhook({ url: receiver.url("t.hooks.test"), eventType: "started" }),
    );
    expect(limited.code).toBe(Code.ResourceExhausted);
    // Another account has its own window; the next minute a new one.
    await notifications
      .as(requester())
      .testWebhook({ url: receiver.url("t.hooks.test"), eventType: "started" });
    await nextMinute();
    await client.testWebhook({ url: receiver.url("t.hooks.test"), eventType: "started" });
  });
});
