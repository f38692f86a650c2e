import { Code, ConnectError } from "@connectrpc/connect";
import { Role, Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { FakeNotifications, TEST_CALLS_PER_MINUTE } from "../../../test/support/fake-notifications.js";
import { caller } from "../../../test/support/requests.js";

const SOURCE = "198.51.100.180";
const NOW = "2026-03-02T10:00:15.000Z";
const RECEIVER = "https://receiver.example.org/hooks";

let clock: FakeClock;
let identity: FakeIdentity;
let notifications: FakeNotifications;
let accountId: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  clock = new FakeClock(NOW);
  identity = await FakeIdentity.create(clock);
  notifications = new FakeNotifications(clock);
  const app = await gatewayWithServices(identity, { notifications });
  const account = identity.addAccount({ tier: Tier.PRO });
  accountId = account.account.id;
  call = caller(app, SOURCE, () => account.secret);
});

describe("POST /webhooks/test", () => {
  it("sends the URL and event as the caller and answers docs/api.md's fields, the webhook-id and the failure class", async () => {
    const response = await call("POST", "/webhooks/test", { url: RECEIVER, event_type: "completed" });
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      success: true,
      response_code: 200,
      response_time_ms: 42,
      webhook_id: "msg_00000000000000000000000001",
      error: null,
    });
    expect(notifications.last("TestWebhook")).toMatchObject({ url: RECEIVER, eventType: "completed" });
    expect(notifications.calls[0]?.principal).toMatchObject({ accountId, role: "requester" });
  });

  it("reports a failing receiver as a 200 with success false (the test itself worked)", async () => {
    notifications.testAnswers.set(RECEIVER, {
      success: false,
      responseCode: 0,
      responseTimeMs: 5000,
      error: "connection_failed",
    });
    const response = await call("POST", "/webhooks/test", { url: RECEIVER, event_type: "claimed" });
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toMatchObject({
      success: false,
      response_code: 0,
      response_time_ms: 5000,
      error: "connection_failed",
    });
  });

  it("refuses malformed bodies with 422 validation_failed before calling the service", async () => {
    for (const body of [
      {},
      { url: RECEIVER },
      { url: RECEIVER, event_type: "deleted" },
      { url: 42, event_type: "claimed" },
      { url: RECEIVER, event_type: "claimed", secret: "x" },
      "[]",
      "{not json",
    ]) {
      const response = await call("POST", "/webhooks/test", body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((await bodyOf(response)).error.code).toBe("validation_failed");
    }
    const missing = await bodyOf(await call("POST", "/webhooks/test", { url: RECEIVER }));
    expect(missing.error.details.errors).toEqual([
      { field: "event_type", path: "event_type", code: "missing_required", message: "required" },
    ]);
    expect(notifications.count("TestWebhook")).toBe(0);
  });

  it("passes the service's URL refusal on as 422 invalid_webhook_url naming the field and the reason", async () => {
    for (const [url, reason] of [
      ["http://receiver.example.org/hooks", "https_required"],
      ["https://10.0.0.7/hooks", "address_not_allowed"],
      ["not a url", "invalid_url"],
    ] as const) {
      const response = await call("POST", "/webhooks/test", { url, event_type: "claimed" });
      expect(response.status, url).toBe(422);
      const body = await bodyOf(response);
      expect(body.error.code).toBe("invalid_webhook_url");
      expect(body.error.details.errors).toEqual([
        { field: "url", path: "url", code: reason, message: expect.any(String) },
      ]);
    }
  });

  it("answers the service's per-account limit with 429 and a Retry-After until its window resets", async () => {
    for (let i = 0; i < TEST_CALLS_PER_MINUTE; i += 1) {
      expect((await call("POST", "/webhooks/test", { url: RECEIVER, event_type: "issue" })).status).toBe(200);
    }
    const limited = await call("POST", "/webhooks/test", { url: RECEIVER, event_type: "issue" });
    expect(limited.status).toBe(429);
    const body = await bodyOf(limited);
    expect(body.error.code).toBe("rate_limit_exceeded");
    const reset = Date.parse("2026-03-02T10:01:00.000Z") / 1000;
    expect(body.error.details).toEqual({ limit: TEST_CALLS_PER_MINUTE, reset });
    expect(limited.headers.get("retry-after")).toBe("45");
    // The account's own request window is not what ran out.
    expect(Number(limited.headers.get("x-ratelimit-remaining"))).toBeGreaterThan(0);

    await clock.advance(45_000);
    expect((await call("POST", "/webhooks/test", { url: RECEIVER, event_type: "issue" })).status).toBe(200);
  });

  it("refuses a body over the gateway's limit with 413 without calling the service", async () => {
    const response = await call("POST", "/webhooks/test", {
      url: `${RECEIVER}?${"q".repeat(5000)}`,
      event_type: "claimed",
    });
    expect(response.status).toBe(413);
    expect(notifications.count("TestWebhook")).toBe(0);
  });
});

// The signing secret's routes run on the real services (test/routes/webhook-secret.int.test.ts).

describe("POST /webhooks/resume", () => {
  it("lifts the pause, says how many held deliveries it queued, and is idempotent", async () => {
    const failing = notifications.addDelivery(accountId, "exp_1", { attempts: [{}, {}, {}, {}, {}] });
    notifications.addDelivery(accountId, "exp_2", { event: "started" });
    notifications.pause(accountId, failing);

    const paused = await bodyOf(await call("GET", "/webhooks/settings"));
    expect(paused).toMatchObject({
      paused: true,
      paused_at: NOW,
      paused_by_delivery_id: failing.id,
      paused_deliveries: 2,
    });

    const resumed = await call("POST", "/webhooks/resume");
    expect(resumed.status).toBe(200);
    expect(await bodyOf(resumed)).toEqual({
      paused: false,
      paused_at: null,
      paused_by_delivery_id: null,
      paused_deliveries: 0,
      signing_secret: null,
      resumed_deliveries: 2,
    });
    expect(notifications.calls.at(-1)?.principal).toMatchObject({ accountId });

    const again = await bodyOf(await call("POST", "/webhooks/resume"));
    expect(again).toMatchObject({ paused: false, resumed_deliveries: 0 });
  });
});

describe("errors of the notifications service", () => {
  it("keep their status: 403, 503, never a 500 for a refusal", async () => {
    const operator = identity.addAccount({ role: Role.OPERATOR, tier: Tier.PRO }).secret;
    // Every account may use its webhooks, whatever its role: the gateway does not refuse it.
    expect((await call("GET", "/webhooks/settings", undefined, operator)).status).toBe(200);

    notifications.failures.set("GetWebhookSettings", () => new ConnectError("down", Code.Unavailable));
    const unavailable = await call("GET", "/webhooks/settings");
    expect(unavailable.status).toBe(503);
    expect((await bodyOf(unavailable)).error.code).toBe("unavailable");

    notifications.failures.set("RotateWebhookSecret", () => new ConnectError("no", Code.PermissionDenied));
    expect((await call("POST", "/webhooks/secret/rotate")).status).toBe(403);
  });

  it("need credentials: 401 without calling the service", async () => {
    for (const [method, path] of [
      ["POST", "/webhooks/test"],
      ["POST", "/webhooks/secret"],
      ["POST", "/webhooks/secret/rotate"],
      ["GET", "/webhooks/settings"],
      ["POST", "/webhooks/resume"],
    ] as const) {
      expect((await call(method, path, undefined, null)).status, `${method} ${path}`).toBe(401);
    }
    expect(notifications.calls).toHaveLength(0);
  });
});
