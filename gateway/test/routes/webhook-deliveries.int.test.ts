import { describe, expect, it } from "vitest";
import { type SignedUp, realServicesAvailable, realServicesOfBlock } from "../support/real-services.js";
import { notificationsOf, receiverOfBlock, webhookHelpers } from "../support/real-webhooks.js";
import { bodyOf } from "../support/requests.js";
import { FakeClock } from "@petri/testkit";

const SOURCE = "198.51.100.185";

describe.skipIf(!(await realServicesAvailable()))("the webhook delivery log on the real services", () => {
  const clock = new FakeClock("2026-03-02T10:00:00.000Z");
  const receiver = receiverOfBlock();
  // owner: most tests; lister: the listing's two deliveries; other: someone else's; paused: the pause.
  const accounts: Record<"owner" | "lister" | "other" | "paused", SignedUp | undefined> = {
    owner: undefined,
    lister: undefined,
    other: undefined,
    paused: undefined,
  };
  const key = (name: keyof typeof accounts) => accounts[name]!.apiKey;
  const { running, call } = realServicesOfBlock({
    source: SOURCE,
    key: () => key("owner"),
    // Experiments accepts any loopback URL, notifications delivers to 127.0.0.1 only: a URL
    // on 127.0.0.2 stands for one the policy refuses after the experiment was posted.
    start: () => ({ clock, services: receiver().serviceSettings({ experimentsAllow: "127.0.0.0/8" }) }),
    prepare: async (petri) => {
      for (const name of Object.keys(accounts) as Array<keyof typeof accounts>)
        accounts[name] = await petri.signUp({ tier: "pro" });
      await deliveriesToList();
    },
  });
  const url = (path: string) => `${receiver().origin}${path}`;
  const hooks = webhookHelpers({ petri: running, call, clock });
  const { claimedDelivery, deliveryOnceIt } = hooks;
  const asStaff = async (method: string, path: string) =>
    call(method, path, undefined, null, { authorization: `Bearer ${await running().staffToken()}` });

  // The listing's deliveries: one failed once and waits for its retry, one (a second later) succeeded.
  let failing: { experimentId: string; deliveryId: string; failedAt: string } | undefined;
  let succeeded: { experimentId: string; deliveryId: string; createdAt: string } | undefined;
  let foreign: { experimentId: string; deliveryId: string } | undefined;

  async function deliveriesToList() {
    receiver().answer("/failing", 500);
    const first = await claimedDelivery(key("lister"), url("/failing"));
    await deliveryOnceIt(key("lister"), first.deliveryId, (d) => d.attempt_count === 1, "the failure");
    failing = { ...first, failedAt: clock.now().toISOString() };
    await clock.advance(1000);
    const second = await claimedDelivery(key("lister"), url("/ok"));
    await deliveryOnceIt(key("lister"), second.deliveryId, (d) => d.status === "succeeded", "the success");
    succeeded = { ...second, createdAt: clock.now().toISOString() };
    foreign = await claimedDelivery(key("other"), url("/ok"));
  }

  describe("GET /webhooks/deliveries", () => {
    it("lists the caller's deliveries newest first, without attempts, with bounded pages", async () => {
      const response = await call("GET", "/webhooks/deliveries?limit=1", undefined, key("lister"));
      expect(response.status).toBe(200);
      const page = await bodyOf(response);
      expect(page.deliveries).toEqual([
        {
          delivery_id: succeeded!.deliveryId,
          webhook_id: succeeded!.deliveryId,
          account_id: accounts.lister!.accountId,
          experiment_id: succeeded!.experimentId,
          event: "claimed",
          experiment_version: expect.any(Number),
          url: url("/ok"),
          status: "succeeded",
          attempt_count: 1,
          next_attempt_at: null,
          last_attempt_at: succeeded!.createdAt,
          last_response_code: 200,
          last_latency_ms: expect.any(Number),
          last_error: null,
          created_at: succeeded!.createdAt,
          delivered_at: succeeded!.createdAt,
        },
      ]);
      expect(page.pagination).toEqual({ total: 2, cursor: expect.any(String), has_more: true });

      const next = await bodyOf(
        await call(
          "GET",
          `/webhooks/deliveries?limit=1&cursor=${encodeURIComponent(page.pagination.cursor)}`,
          undefined,
          key("lister"),
        ),
      );
      expect(next.deliveries.map((d: any) => d.delivery_id)).toEqual([failing!.deliveryId]);
      expect(next.deliveries[0]).toMatchObject({
        status: "pending",
        attempt_count: 1,
        last_response_code: 500,
        last_error: "http_status",
        next_attempt_at: new Date(Date.parse(failing!.failedAt) + 60_000).toISOString(),
      });
      expect(next.deliveries[0]).not.toHaveProperty("attempts");
      expect(next.pagination).toEqual({ total: 2, cursor: null, has_more: false });
      const all = await bodyOf(await call("GET", "/webhooks/deliveries", undefined, key("lister")));
      expect(all.deliveries).toHaveLength(2);
    });

    it("filters by experiment and status", async () => {
      const list = async (query: string) =>
        (
          await bodyOf(await call("GET", `/webhooks/deliveries?${query}`, undefined, key("lister")))
        ).deliveries.map((d: any) => d.delivery_id);
      expect(await list(`experiment_id=${failing!.experimentId}`)).toEqual([failing!.deliveryId]);
      expect(await list("status=pending")).toEqual([failing!.deliveryId]);
      expect(await list("status=succeeded")).toEqual([succeeded!.deliveryId]);
      expect(await list(`experiment_id=${failing!.experimentId}&status=succeeded`)).toEqual([]);
    });

    it("refuses bad filters and page bounds with 422", async () => {
      for (const query of [
        "limit=0",
        "limit=101",
        "limit=-1",
        "limit=2.5",
        "limit=ten",
        "status=delivered",
        "cursor=",
        `cursor=${"c".repeat(513)}`,
        `experiment_id=${"e".repeat(65)}`,
      ]) {
        const response = await call("GET", `/webhooks/deliveries?${query}`);
        expect(response.status, query).toBe(422);
        expect((await bodyOf(response)).error.code).toBe("validation_failed");
      }
    });

    it("passes the service's refusal of a cursor on as 422 naming the field", async () => {
      const response = await call("GET", "/webhooks/deliveries?cursor=forged");
      expect(response.status).toBe(422);
      expect((await bodyOf(response)).error.details.errors).toEqual([
        { field: "cursor", path: "cursor", code: "invalid_value", message: expect.any(String) },
      ]);
    });
  });

  describe("GET /experiments/{experiment_id}/webhook-deliveries", () => {
    it("lists the caller's deliveries of that experiment only", async () => {
      const path = `/experiments/${failing!.experimentId}/webhook-deliveries`;
      const page = await bodyOf(
        await call("GET", `${path}?status=pending&limit=5`, undefined, key("lister")),
      );
      expect(page.deliveries.map((d: any) => d.delivery_id)).toEqual([failing!.deliveryId]);
      for (const query of ["limit=0", "limit=101", "status=lost"]) {
        expect((await call("GET", `${path}?${query}`, undefined, key("lister"))).status, query).toBe(422);
      }
    });

    it("is 404 for another account's experiment and for an unknown one, like the experiment itself", async () => {
      for (const id of [foreign!.experimentId, "exp_000999"]) {
        const response = await call("GET", `/experiments/${id}/webhook-deliveries`);
        expect(response.status, id).toBe(404);
        expect((await bodyOf(response)).error.code).toBe("not_found");
      }
    });
  });

  describe("GET /webhooks/deliveries/{delivery_id}", () => {
    it("gives the delivery with its attempts, oldest first", async () => {
      receiver().answer("/flaky", 500);
      const { experimentId, deliveryId } = await claimedDelivery(key("owner"), url("/flaky"));
      await deliveryOnceIt(key("owner"), deliveryId, (d) => d.attempt_count === 1, "attempt 1");
      const createdAt = clock.now().toISOString();
      receiver().answer("/flaky", "drop");
      await clock.advance(60_000);
      await notificationsOf(running()).deliverDue();
      const delivery = await deliveryOnceIt(
        key("owner"),
        deliveryId,
        (d) => d.attempt_count === 2,
        "attempt 2",
      );
      const retriedAt = clock.now().toISOString();
      expect(delivery).toEqual({
        delivery_id: deliveryId,
        webhook_id: deliveryId,
        account_id: accounts.owner!.accountId,
        experiment_id: experimentId,
        event: "claimed",
        experiment_version: expect.any(Number),
        url: url("/flaky"),
        status: "pending",
        attempt_count: 2,
        next_attempt_at: new Date(Date.parse(retriedAt) + 5 * 60_000).toISOString(),
        last_attempt_at: retriedAt,
        // No answer: response code 0.
        last_response_code: 0,
        last_latency_ms: expect.any(Number),
        last_error: "connection_failed",
        created_at: createdAt,
        delivered_at: null,
        attempts: [
          {
            number: 1,
            trigger: "event",
            attempted_at: createdAt,
            outcome: "failed",
            response_code: 500,
            latency_ms: expect.any(Number),
            error: "http_status",
          },
          {
            number: 2,
            trigger: "event",
            attempted_at: retriedAt,
            outcome: "failed",
            response_code: 0,
            latency_ms: expect.any(Number),
            error: "connection_failed",
          },
        ],
      });
      // Both attempts reached the receiver as the same webhook.
      expect(
        receiver()
          .at("/flaky")
          .map((r) => r.headers["webhook-id"]),
      ).toEqual([deliveryId, deliveryId]);
    });

    it("shows a success as delivered, with no error and no next attempt", async () => {
      const body = await bodyOf(
        await call("GET", `/webhooks/deliveries/${succeeded!.deliveryId}`, undefined, key("lister")),
      );
      expect(body).toMatchObject({
        status: "succeeded",
        next_attempt_at: null,
        last_response_code: 200,
        last_error: null,
        delivered_at: succeeded!.createdAt,
      });
      expect(body.attempts).toEqual([
        expect.objectContaining({ number: 1, outcome: "succeeded", response_code: 200, error: null }),
      ]);
    });

    it("is 404 for another account's delivery and an unknown id; staff may read any", async () => {
      for (const id of [foreign!.deliveryId, "msg_unknown"]) {
        const response = await call("GET", `/webhooks/deliveries/${id}`);
        expect(response.status, id).toBe(404);
        expect((await bodyOf(response)).error.code).toBe("not_found");
      }
      const seen = await asStaff("GET", `/webhooks/deliveries/${foreign!.deliveryId}`);
      expect(seen.status).toBe(200);
      expect((await bodyOf(seen)).account_id).toBe(accounts.other!.accountId);
      expect((await call("GET", `/webhooks/deliveries/${"m".repeat(65)}`)).status).toBe(404);
    });
  });

  describe("POST /webhooks/deliveries/{delivery_id}/replay", () => {
    it("queues the delivery again: 202 with the delivery, pending; the receiver gets the same webhook again", async () => {
      const { deliveryId } = await claimedDelivery(key("owner"), url("/replayed"));
      await deliveryOnceIt(key("owner"), deliveryId, (d) => d.status === "succeeded", "the success");
      await clock.advance(3_600_000);
      const response = await call("POST", `/webhooks/deliveries/${deliveryId}/replay`);
      expect(response.status).toBe(202);
      const body = await bodyOf(response);
      expect(body).toMatchObject({
        delivery_id: deliveryId,
        status: "pending",
        next_attempt_at: clock.now().toISOString(),
        attempt_count: 1,
      });
      expect(body).not.toHaveProperty("attempts");
      const replayed = await deliveryOnceIt(
        key("owner"),
        deliveryId,
        (d) => d.attempt_count === 2,
        "the replay",
      );
      expect(replayed.attempts[1]).toMatchObject({ number: 2, trigger: "replay", outcome: "succeeded" });
      expect(
        receiver()
          .at("/replayed")
          .map((r) => r.headers["webhook-id"]),
      ).toEqual([deliveryId, deliveryId]);
    });

    it("is 409 webhook_delivery_in_flight while an attempt runs, and 409 invalid_state while paused", async () => {
      receiver().hold();
      try {
        const { deliveryId } = await claimedDelivery(key("owner"), url("/slow"));
        await hooks.eventuallyReceived(receiver(), "/slow");
        const inFlight = await call("POST", `/webhooks/deliveries/${deliveryId}/replay`);
        expect(inFlight.status).toBe(409);
        expect(await bodyOf(inFlight)).toEqual({
          error: {
            code: "webhook_delivery_in_flight",
            message: expect.any(String),
            details: { delivery_id: deliveryId, retryable: true },
          },
        });
      } finally {
        receiver().release();
      }

      receiver().answer("/down", 500);
      const { deliveryId } = await claimedDelivery(key("paused"), url("/down"));
      await hooks.failUntilPaused(key("paused"), deliveryId);
      const paused = await call(
        "POST",
        `/webhooks/deliveries/${deliveryId}/replay`,
        undefined,
        key("paused"),
      );
      expect(paused.status).toBe(409);
      expect(await bodyOf(paused)).toEqual({
        error: {
          code: "invalid_state",
          message: expect.any(String),
          details: { status: "paused", allowed_from: ["active"] },
        },
      });
    });

    it("is 404 for another account's delivery, 403 for staff acting on it, 422 for a refused URL", async () => {
      expect((await call("POST", `/webhooks/deliveries/${foreign!.deliveryId}/replay`)).status).toBe(404);
      const asStaffReplay = await asStaff("POST", `/webhooks/deliveries/${foreign!.deliveryId}/replay`);
      expect(asStaffReplay.status).toBe(403);
      expect((await bodyOf(asStaffReplay)).error.code).toBe("forbidden");

      const refusedUrl = url("/hooks").replace("127.0.0.1", "127.0.0.2");
      const { deliveryId } = await claimedDelivery(key("owner"), refusedUrl);
      const refused = await deliveryOnceIt(
        key("owner"),
        deliveryId,
        (d) => d.status === "failed",
        "the refusal",
      );
      expect(refused).toMatchObject({ attempt_count: 0, last_error: "url_not_allowed", attempts: [] });
      const response = await call("POST", `/webhooks/deliveries/${deliveryId}/replay`);
      expect(response.status).toBe(422);
      const body = await bodyOf(response);
      expect(body.error.code).toBe("invalid_webhook_url");
      expect(body.error.details.errors).toEqual([
        {
          field: "webhook_url",
          path: "webhook_url",
          code: "address_not_allowed",
          message: expect.any(String),
        },
      ]);
    });

    it("needs credentials", async () => {
      expect(
        (await call("POST", `/webhooks/deliveries/${failing!.deliveryId}/replay`, undefined, null)).status,
      ).toBe(401);
      expect((await call("GET", "/webhooks/deliveries", undefined, null)).status).toBe(401);
    });
  });
});
