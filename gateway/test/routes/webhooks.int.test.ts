import { FakeClock } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import { type SignedUp, realServicesAvailable, realServicesOfBlock } from "../support/real-services.js";
import { NOT_PAUSED, receiverOfBlock, webhookHelpers } from "../support/real-webhooks.js";
import { bodyOf } from "../support/requests.js";

const SOURCE = "198.51.100.180";

describe.skipIf(!(await realServicesAvailable()))("the webhook routes on the real services", () => {
  const clock = new FakeClock("2026-03-02T10:00:15.000Z");
  const receiver = receiverOfBlock();
  // owner: most tests; limited: the test-call limit; pauser: the pause and resume.
  const accounts: Record<"owner" | "limited" | "pauser", SignedUp | undefined> = {
    owner: undefined,
    limited: undefined,
    pauser: undefined,
  };
  const key = (name: keyof typeof accounts) => accounts[name]!.apiKey;
  const { running, call } = realServicesOfBlock({
    source: SOURCE,
    key: () => key("owner"),
    start: () => ({ clock, gateway: { maxBodyBytes: 4096 }, services: receiver().serviceSettings() }),
    prepare: async (petri) => {
      for (const name of Object.keys(accounts) as Array<keyof typeof accounts>)
        accounts[name] = await petri.signUp({ tier: "pro" });
    },
  });
  const url = (path: string) => `${receiver().origin}${path}`;
  const hooks = webhookHelpers({ petri: running, call, clock });

  describe("POST /webhooks/test", () => {
    it("sends a signed sample of the event to the URL and answers docs/api.md's fields and the webhook-id", async () => {
      const response = await call("POST", "/webhooks/test", {
        url: url("/test-ok"),
        event_type: "completed",
      });
      expect(response.status).toBe(200);
      const body = await bodyOf(response);
      expect(body).toEqual({
        success: true,
        response_code: 200,
        response_time_ms: expect.any(Number),
        webhook_id: expect.stringMatching(/^msg_/),
        error: null,
      });
      const [received] = receiver().at("/test-ok");
      expect(received?.headers).toMatchObject({
        "webhook-id": body.webhook_id,
        "webhook-signature": expect.stringMatching(/^v1,/),
      });
      expect(JSON.parse(received!.body).event).toBe("completed");
    });

    it("reports a failing receiver as a 200 with success false (the test itself worked)", async () => {
      receiver().answer("/test-500", 500);
      const failed = await call("POST", "/webhooks/test", { url: url("/test-500"), event_type: "claimed" });
      expect(failed.status).toBe(200);
      expect(await bodyOf(failed)).toMatchObject({
        success: false,
        response_code: 500,
        error: "http_status",
      });

      receiver().answer("/test-drop", "drop");
      const dropped = await call("POST", "/webhooks/test", { url: url("/test-drop"), event_type: "claimed" });
      expect(dropped.status).toBe(200);
      expect(await bodyOf(dropped)).toMatchObject({
        success: false,
        response_code: 0,
        response_time_ms: expect.any(Number),
        error: "connection_failed",
      });
    });

    it("refuses malformed bodies with 422 validation_failed and sends nothing", async () => {
      const target = url("/test-malformed");
      for (const body of [
        {},
        { url: target },
        { url: target, event_type: "deleted" },
        { url: 42, event_type: "claimed" },
        { url: target, event_type: "claimed", secret: "x" },
        "[]",
        "{not json",
      ]) {
        const response = await call("POST", "/webhooks/test", body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect((await bodyOf(response)).error.code).toBe("validation_failed");
      }
      const missing = await bodyOf(await call("POST", "/webhooks/test", { url: target }));
      expect(missing.error.details.errors).toEqual([
        { field: "event_type", path: "event_type", code: "missing_required", message: "required" },
      ]);
      expect(receiver().at("/test-malformed")).toEqual([]);
    });

    it("passes the service's URL refusal on as 422 invalid_webhook_url naming the field and the reason", async () => {
      for (const [refused, reason] of [
        [url("/test-plain").replace("https:", "http:"), "https_required"],
        ["https://10.0.0.7/hooks", "address_not_allowed"],
        ["not a url", "not_a_url"],
      ] as const) {
        const response = await call("POST", "/webhooks/test", { url: refused, event_type: "claimed" });
        expect(response.status, refused).toBe(422);
        const body = await bodyOf(response);
        expect(body.error.code).toBe("invalid_webhook_url");
        expect(body.error.details.errors).toEqual([
          { field: "url", path: "url", code: reason, message: expect.any(String) },
        ]);
      }
      expect(receiver().at("/test-plain")).toEqual([]);
    });

    it("answers the service's per-account limit with 429 and a Retry-After until its window resets", async () => {
      const test = () =>
        call("POST", "/webhooks/test", { url: url("/test-limit"), event_type: "issue" }, key("limited"));
      let limited: Response | undefined;
      for (let calls = 0; calls < 100 && limited === undefined; calls += 1) {
        const answer = await test();
        if (answer.status === 429) limited = answer;
        else expect(answer.status).toBe(200);
      }
      expect(limited?.status).toBe(429);
      const body = await bodyOf(limited!);
      expect(body.error.code).toBe("rate_limit_exceeded");
      const now = clock.now().getTime();
      const reset = Math.floor(now / 60_000) * 60 + 60;
      // 10 a minute (docs/api.md), each of which reached the receiver.
      expect(body.error.details).toEqual({ limit: 10, reset });
      expect(receiver().at("/test-limit")).toHaveLength(10);
      expect(limited!.headers.get("retry-after")).toBe(String(reset - Math.floor(now / 1000)));
      // The account's own request window is not what ran out.
      expect(Number(limited!.headers.get("x-ratelimit-remaining"))).toBeGreaterThan(0);

      await clock.advance(reset * 1000 - now);
      expect((await test()).status).toBe(200);
    });

    it("refuses a body over the gateway's limit with 413 and sends nothing", async () => {
      const response = await call("POST", "/webhooks/test", {
        url: `${url("/test-large")}?${"q".repeat(5000)}`,
        event_type: "claimed",
      });
      expect(response.status).toBe(413);
      expect(receiver().received.filter((r) => r.path.startsWith("/test-large"))).toEqual([]);
    });
  });

  // The signing secret's routes: test/routes/webhook-secret.int.test.ts.

  describe("POST /webhooks/resume", () => {
    it("lifts the pause, says how many held deliveries it queued, and is idempotent", async () => {
      receiver().answer("/down", 500);
      const failing = await hooks.claimedDelivery(key("pauser"), url("/down"));
      const other = await hooks.claimedDelivery(key("pauser"), url("/later"));
      await hooks.deliveryOnceIt(
        key("pauser"),
        other.deliveryId,
        (d) => d.status === "succeeded",
        "the success",
      );
      await hooks.failUntilPaused(key("pauser"), failing.deliveryId);
      const pausedAt = clock.now().toISOString();
      // Held while paused: a delivery of a claim after the pause.
      const held = await hooks.claimedDelivery(key("pauser"), url("/later"));

      const paused = await bodyOf(await call("GET", "/webhooks/settings", undefined, key("pauser")));
      expect(paused).toMatchObject({
        paused: true,
        paused_at: pausedAt,
        paused_by_delivery_id: failing.deliveryId,
        paused_deliveries: 2,
      });
      const statusOf = async (deliveryId: string) =>
        (await bodyOf(await call("GET", `/webhooks/deliveries/${deliveryId}`, undefined, key("pauser"))))
          .status;
      expect(await statusOf(held.deliveryId)).toBe("paused");

      receiver().answer("/down", 200);
      const resumed = await call("POST", "/webhooks/resume", undefined, key("pauser"));
      expect(resumed.status).toBe(200);
      expect(await bodyOf(resumed)).toEqual({
        ...NOT_PAUSED,
        signing_secret: expect.anything(),
        resumed_deliveries: 2,
      });
      // Both are sent again, now that the receiver answers.
      for (const { deliveryId } of [failing, held])
        await hooks.deliveryOnceIt(
          key("pauser"),
          deliveryId,
          (d) => d.status === "succeeded",
          "the resumed delivery",
        );

      const again = await bodyOf(await call("POST", "/webhooks/resume", undefined, key("pauser")));
      expect(again).toMatchObject({ paused: false, resumed_deliveries: 0 });
    });
  });

  describe("every account's webhooks", () => {
    it("are open to every role: an operator reads its settings", async () => {
      const lab = await hooks.activeLab("Settings Lab");
      const settings = await call("GET", "/webhooks/settings", undefined, lab.apiKey);
      expect(settings.status).toBe(200);
      expect(await bodyOf(settings)).toMatchObject({ paused: false, paused_deliveries: 0 });
    });

    it("need credentials: 401", async () => {
      for (const [method, path] of [
        ["POST", "/webhooks/test"],
        ["POST", "/webhooks/secret"],
        ["POST", "/webhooks/secret/rotate"],
        ["GET", "/webhooks/settings"],
        ["POST", "/webhooks/resume"],
      ] as const) {
        expect((await call(method, path, undefined, null)).status, `${method} ${path}`).toBe(401);
      }
    });
  });
});
