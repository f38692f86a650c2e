import { Role, Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { FakeExperiments, gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { FakeNotifications } from "../../../test/support/fake-notifications.js";
import { caller } from "../../../test/support/requests.js";

const SOURCE = "198.51.100.185";
const NOW = "2026-03-02T10:00:00.000Z";

let clock: FakeClock;
let identity: FakeIdentity;
let notifications: FakeNotifications;
let experiments: FakeExperiments;
let accountId: string;
let staffKey: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  clock = new FakeClock(NOW);
  identity = await FakeIdentity.create(clock);
  notifications = new FakeNotifications(clock);
  experiments = new FakeExperiments(clock);
  const app = await gatewayWithServices(identity, { notifications, experiments });
  const account = identity.addAccount({ tier: Tier.PRO });
  accountId = account.account.id;
  staffKey = identity.addAccount({ role: Role.STAFF, tier: Tier.PRO }).secret;
  call = caller(app, SOURCE, () => account.secret);
});

/** A delivery that failed twice (a 500, then no answer) and waits for its third attempt. */
function retrying(experimentId = "exp_1") {
  return notifications.addDelivery(accountId, experimentId, {
    event: "completed",
    attempts: [
      { responseCode: 500, latencyMs: 120, error: "http_status" },
      { responseCode: 0, latencyMs: 5000, error: "connection_failed" },
    ],
  });
}

describe("GET /webhooks/deliveries", () => {
  it("lists the caller's deliveries newest first, without attempts, with bounded pages", async () => {
    const first = retrying();
    await clock.advance(1000);
    const second = notifications.addDelivery(accountId, "exp_2", { event: "claimed" });
    notifications.addDelivery("usr_someone_else", "exp_3");

    const response = await call("GET", "/webhooks/deliveries?limit=1");
    expect(response.status).toBe(200);
    const page = await bodyOf(response);
    expect(page.deliveries).toEqual([
      {
        delivery_id: second.id,
        webhook_id: second.id,
        account_id: accountId,
        experiment_id: "exp_2",
        event: "claimed",
        experiment_version: 3,
        url: "https://receiver.example.org/hooks",
        status: "pending",
        attempt_count: 0,
        next_attempt_at: "2026-03-02T10:00:01.000Z",
        last_attempt_at: null,
        last_response_code: null,
        last_latency_ms: null,
        last_error: null,
        created_at: "2026-03-02T10:00:01.000Z",
        delivered_at: null,
      },
    ]);
    expect(page.pagination).toEqual({ total: 2, cursor: "c1", has_more: true });
    expect(notifications.last("ListWebhookDeliveries")).toMatchObject({
      experimentId: "",
      status: "",
      limit: 1,
      cursor: "",
      accountId: "",
    });
    expect(notifications.calls[0]?.principal).toMatchObject({ accountId, role: "requester" });

    const next = await bodyOf(
      await call("GET", `/webhooks/deliveries?limit=1&cursor=${page.pagination.cursor}`),
    );
    expect(next.deliveries.map((d: any) => d.delivery_id)).toEqual([first.id]);
    expect(next.deliveries[0]).toMatchObject({
      attempt_count: 2,
      last_response_code: 0,
      last_latency_ms: 5000,
      last_error: "connection_failed",
    });
    expect(next.deliveries[0]).not.toHaveProperty("attempts");
    expect(next.pagination).toEqual({ total: 2, cursor: null, has_more: false });
    expect(notifications.last("ListWebhookDeliveries")).toMatchObject({ limit: 1, cursor: "c1" });

    await call("GET", "/webhooks/deliveries");
    expect(notifications.last("ListWebhookDeliveries")).toMatchObject({ limit: 20 });
  });

  it("forwards the experiment and status filters", async () => {
    retrying("exp_1");
    notifications.addDelivery(accountId, "exp_1", { status: "succeeded" });
    notifications.addDelivery(accountId, "exp_2");
    const page = await bodyOf(await call("GET", "/webhooks/deliveries?experiment_id=exp_1&status=pending"));
    expect(page.pagination.total).toBe(1);
    expect(notifications.last("ListWebhookDeliveries")).toMatchObject({
      experimentId: "exp_1",
      status: "pending",
    });
  });

  it("refuses bad filters and page bounds with 422 before calling the service", async () => {
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
    expect(notifications.count("ListWebhookDeliveries")).toBe(0);
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
    const experiment = experiments.add(accountId, ExperimentStatus.OPEN);
    const mine = retrying(experiment.id);
    notifications.addDelivery(accountId, "exp_2");

    const page = await bodyOf(
      await call("GET", `/experiments/${experiment.id}/webhook-deliveries?status=pending&limit=5`),
    );
    expect(page.deliveries.map((d: any) => d.delivery_id)).toEqual([mine.id]);
    expect(notifications.last("ListWebhookDeliveries")).toMatchObject({
      experimentId: experiment.id,
      status: "pending",
      limit: 5,
      accountId: "",
    });
    for (const query of ["limit=0", "limit=101", "status=lost"]) {
      const invalid = await call("GET", `/experiments/${experiment.id}/webhook-deliveries?${query}`);
      expect(invalid.status, query).toBe(422);
    }
  });

  it("is 404 for another account's experiment and for an unknown one, like the experiment itself", async () => {
    const foreign = experiments.add("usr_someone_else", ExperimentStatus.OPEN);
    notifications.addDelivery("usr_someone_else", foreign.id);
    for (const id of [foreign.id, "exp_000999"]) {
      const response = await call("GET", `/experiments/${id}/webhook-deliveries`);
      expect(response.status, id).toBe(404);
      expect((await bodyOf(response)).error.code).toBe("not_found");
    }
    expect(notifications.calls.filter((c) => c.method === "ListWebhookDeliveries")).toEqual([]);
  });
});

describe("GET /webhooks/deliveries/{delivery_id}", () => {
  it("gives the delivery with its attempts, oldest first", async () => {
    const delivery = retrying();
    const response = await call("GET", `/webhooks/deliveries/${delivery.id}`);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      delivery_id: delivery.id,
      webhook_id: delivery.id,
      account_id: accountId,
      experiment_id: "exp_1",
      event: "completed",
      experiment_version: 3,
      url: "https://receiver.example.org/hooks",
      status: "pending",
      attempt_count: 2,
      next_attempt_at: NOW,
      last_attempt_at: NOW,
      last_response_code: 0,
      last_latency_ms: 5000,
      last_error: "connection_failed",
      created_at: NOW,
      delivered_at: null,
      attempts: [
        {
          number: 1,
          trigger: "event",
          attempted_at: NOW,
          outcome: "failed",
          response_code: 500,
          latency_ms: 120,
          error: "http_status",
        },
        {
          number: 2,
          trigger: "event",
          attempted_at: NOW,
          outcome: "failed",
          response_code: 0,
          latency_ms: 5000,
          error: "connection_failed",
        },
      ],
    });
    expect(notifications.last("GetWebhookDelivery")).toMatchObject({ deliveryId: delivery.id });
  });

  it("shows a success as delivered, with no error and no next attempt", async () => {
    const delivery = notifications.addDelivery(accountId, "exp_1", {
      status: "succeeded",
      attempts: [{ outcome: "succeeded", responseCode: 204, latencyMs: 80 }],
    });
    const body = await bodyOf(await call("GET", `/webhooks/deliveries/${delivery.id}`));
    expect(body).toMatchObject({
      status: "succeeded",
      next_attempt_at: null,
      last_response_code: 204,
      last_error: null,
      delivered_at: NOW,
    });
    expect(body.attempts[0]).toMatchObject({ outcome: "succeeded", response_code: 204, error: null });
  });

  it("is 404 for another account's delivery and an unknown id; staff may read any", async () => {
    const foreign = notifications.addDelivery("usr_someone_else", "exp_9");
    for (const id of [foreign.id, "msg_unknown"]) {
      const response = await call("GET", `/webhooks/deliveries/${id}`);
      expect(response.status, id).toBe(404);
      expect((await bodyOf(response)).error.code).toBe("not_found");
    }
    const asStaff = await call("GET", `/webhooks/deliveries/${foreign.id}`, undefined, staffKey);
    expect(asStaff.status).toBe(200);
    expect((await bodyOf(asStaff)).account_id).toBe("usr_someone_else");
    expect((await call("GET", `/webhooks/deliveries/${"m".repeat(65)}`)).status).toBe(404);
  });
});

describe("POST /webhooks/deliveries/{delivery_id}/replay", () => {
  it("queues the delivery again: 202 with the delivery, pending", async () => {
    const delivery = notifications.addDelivery(accountId, "exp_1", {
      status: "succeeded",
      attempts: [{ outcome: "succeeded", responseCode: 200, latencyMs: 30 }],
    });
    await clock.advance(3_600_000);
    const response = await call("POST", `/webhooks/deliveries/${delivery.id}/replay`);
    expect(response.status).toBe(202);
    const body = await bodyOf(response);
    expect(body).toMatchObject({
      delivery_id: delivery.id,
      status: "pending",
      next_attempt_at: "2026-03-02T11:00:00.000Z",
      attempt_count: 1,
    });
    expect(body).not.toHaveProperty("attempts");
    expect(notifications.last("ReplayWebhookDelivery")).toMatchObject({ deliveryId: delivery.id });
    expect(notifications.calls.at(-1)?.principal).toMatchObject({ accountId });
  });

  it("is 409 webhook_delivery_in_flight while an attempt runs, and 409 invalid_state while paused", async () => {
    const delivery = retrying();
    notifications.inFlight.add(delivery.id);
    const inFlight = await call("POST", `/webhooks/deliveries/${delivery.id}/replay`);
    expect(inFlight.status).toBe(409);
    expect(await bodyOf(inFlight)).toEqual({
      error: {
        code: "webhook_delivery_in_flight",
        message: expect.any(String),
        details: { delivery_id: delivery.id, retryable: true },
      },
    });

    notifications.inFlight.clear();
    notifications.pause(accountId, delivery);
    const paused = await call("POST", `/webhooks/deliveries/${delivery.id}/replay`);
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
    const foreign = notifications.addDelivery("usr_someone_else", "exp_9");
    expect((await call("POST", `/webhooks/deliveries/${foreign.id}/replay`)).status).toBe(404);
    const asStaff = await call("POST", `/webhooks/deliveries/${foreign.id}/replay`, undefined, staffKey);
    expect(asStaff.status).toBe(403);
    expect((await bodyOf(asStaff)).error.code).toBe("forbidden");

    const refused = notifications.addDelivery(accountId, "exp_1", {
      status: "failed",
      url: "https://192.168.1.10/hooks",
      lastError: "url_not_allowed",
    });
    const response = await call("POST", `/webhooks/deliveries/${refused.id}/replay`);
    expect(response.status).toBe(422);
    const body = await bodyOf(response);
    expect(body.error.code).toBe("invalid_webhook_url");
    expect(body.error.details.errors).toEqual([
      { field: "webhook_url", path: "webhook_url", code: "address_not_allowed", message: expect.any(String) },
    ]);
  });

  it("needs credentials", async () => {
    const delivery = retrying();
    expect((await call("POST", `/webhooks/deliveries/${delivery.id}/replay`, undefined, null)).status).toBe(
      401,
    );
    expect((await call("GET", "/webhooks/deliveries", undefined, null)).status).toBe(401);
    expect(notifications.calls).toHaveLength(0);
  });
});
