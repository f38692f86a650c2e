import { ExperimentStatus } from "@petri/contracts/experiments";
import { Role, Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeExperiments, gatewayWithExperiments } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf, from } from "../../../test/support/fake-identity.js";

const SOURCE = "198.51.100.63";

let identity: FakeIdentity;
let experiments: FakeExperiments;
let app: Awaited<ReturnType<typeof gatewayWithExperiments>>;
let staffKey: string;
let requesterId: string;
let requesterKey: string;

beforeEach(async () => {
  const clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  experiments = new FakeExperiments(clock);
  app = await gatewayWithExperiments(identity, experiments);
  staffKey = identity.addAccount({ role: Role.STAFF, tier: Tier.PRO }).secret;
  const requester = identity.addAccount({ tier: Tier.PRO });
  requesterId = requester.account.id;
  requesterKey = requester.secret;
});

function call(method: string, path: string, body?: unknown, key = staffKey) {
  return app.request(
    path,
    {
      method,
      headers: { "x-api-key": key, ...(body !== undefined && { "content-type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    },
    from(SOURCE),
  );
}

describe("staff review", () => {
  it("is staff only: requesters and operators get 403 without a call", async () => {
    const experiment = experiments.add(requesterId, ExperimentStatus.PENDING_REVIEW);
    const operatorKey = identity.addAccount({ role: Role.OPERATOR, tier: Tier.PRO }).secret;
    for (const key of [requesterKey, operatorKey]) {
      expect((await call("GET", "/admin/review-queue", undefined, key)).status).toBe(403);
      const approve = await call("POST", `/admin/experiments/${experiment.id}/approve`, {}, key);
      expect(approve.status).toBe(403);
      expect((await bodyOf(approve)).error.code).toBe("forbidden");
    }
    expect(experiments.calls).toHaveLength(0);
  });

  it("GET /admin/review-queue pages the pending_review experiments with their reasons", async () => {
    const pending = experiments.add(requesterId, ExperimentStatus.PENDING_REVIEW);
    pending.reviewReasons = ["custom_protocol"];
    experiments.add(requesterId, ExperimentStatus.OPEN);
    const response = await call("GET", "/admin/review-queue?limit=5");
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body.experiments.map((e: any) => [e.experiment_id, e.status, e.review_reasons])).toEqual([
      [pending.id, "pending_review", ["custom_protocol"]],
    ]);
    expect(body.pagination).toEqual({ total: 1, cursor: null, has_more: false });
    expect(experiments.last("ListReviewQueue")).toMatchObject({ limit: 5, cursor: "" });
    expect((await call("GET", "/admin/review-queue?limit=0")).status).toBe(422);
  });

  it("approve (with or without a body) opens the experiment", async () => {
    const one = experiments.add(requesterId, ExperimentStatus.PENDING_REVIEW);
    const approved = await call("POST", `/admin/experiments/${one.id}/approve`, { note: "looks fine" });
    expect(approved.status).toBe(200);
    expect((await bodyOf(approved)).status).toBe("open");
    expect(experiments.last("ApproveReview")).toMatchObject({ experimentId: one.id, note: "looks fine" });

    const two = experiments.add(requesterId, ExperimentStatus.PENDING_REVIEW);
    expect((await call("POST", `/admin/experiments/${two.id}/approve`)).status).toBe(200);
    expect(experiments.last("ApproveReview").note).toBe("");

    const again = await call("POST", `/admin/experiments/${two.id}/approve`);
    expect(again.status).toBe(409);
    expect((await bodyOf(again)).error.details).toEqual({ status: "open", allowed_from: ["pending_review"] });
  });

  it("reject cancels with the reason and a full refund in USD", async () => {
    const experiment = experiments.add(requesterId, ExperimentStatus.PENDING_REVIEW);
    expect((await call("POST", `/admin/experiments/${experiment.id}/reject`, {})).status).toBe(422);
    const rejected = await call("POST", `/admin/experiments/${experiment.id}/reject`, { reason: "unsafe" });
    expect(rejected.status).toBe(200);
    expect((await bodyOf(rejected)).cancellation).toEqual({
      reason: "unsafe",
      refund_amount_usd: 412.5,
      operator_compensation_usd: 0,
      refund_status: "full",
      cancelled_at: "2026-03-02T10:00:00.000Z",
    });
  });

  it("protocol-proposal sends the protocol as JSON; the experiment shows the proposal", async () => {
    const experiment = experiments.add(requesterId, ExperimentStatus.PENDING_REVIEW);
    const protocol = { protocol_title: "MIC", steps: [{ step_number: 1, action: "dilute" }] };
    const response = await call("POST", `/admin/experiments/${experiment.id}/protocol-proposal`, {
      protocol,
      note: "first draft",
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(experiments.last("ProposeProtocol").protocolJson)).toEqual(protocol);
    expect((await bodyOf(response)).protocol_proposal).toEqual({
      revision: 1,
      status: "proposed",
      protocol,
      note: "first draft",
    });
    const missing = await call("POST", `/admin/experiments/${experiment.id}/protocol-proposal`, {
      note: "x",
    });
    expect(missing.status).toBe(422);
    expect((await bodyOf(missing)).error.details.errors[0]).toMatchObject({
      path: "protocol",
      code: "missing_required",
    });
  });
});

describe("the /staff paths, deprecated aliases of /admin", () => {
  it("still answer like their /admin twins, staff only", async () => {
    const experiment = experiments.add(requesterId, ExperimentStatus.PENDING_REVIEW);
    const queue = await call("GET", "/staff/review-queue");
    expect(queue.status).toBe(200);
    expect(await bodyOf(queue)).toEqual(await bodyOf(await call("GET", "/admin/review-queue")));

    const proposal = await call("POST", `/staff/experiments/${experiment.id}/protocol-proposal`, {
      protocol: { steps: [] },
    });
    expect(proposal.status).toBe(200);
    expect((await call("POST", `/staff/experiments/${experiment.id}/approve`, {})).status).toBe(200);
    const other = experiments.add(requesterId, ExperimentStatus.PENDING_REVIEW);
    const rejected = await call("POST", `/staff/experiments/${other.id}/reject`, { reason: "unsafe" });
    expect((await bodyOf(rejected)).status).toBe("cancelled");
    expect(experiments.calls.map((c) => c.method)).toEqual([
      "ListReviewQueue",
      "ListReviewQueue",
      "ProposeProtocol",
      "ApproveReview",
      "RejectReview",
    ]);
    expect((await call("GET", "/staff/review-queue", undefined, requesterKey)).status).toBe(403);
  });

  it("are marked deprecated in the OpenAPI document, each next to its /admin operation", async () => {
    const document = await bodyOf(await app.request("/openapi.json", {}, from(SOURCE)));
    const legacy = Object.entries(document.paths as Record<string, Record<string, any>>).filter(([path]) =>
      path.startsWith("/staff/"),
    );
    expect(legacy.map(([path]) => path).sort()).toEqual([
      "/staff/accounts/{account_id}",
      "/staff/experiments/{experiment_id}/approve",
      "/staff/experiments/{experiment_id}/protocol-proposal",
      "/staff/experiments/{experiment_id}/reject",
      "/staff/review-queue",
      "/staff/signing-keys/rotate",
    ]);
    for (const [path, operations] of legacy) {
      for (const [method, operation] of Object.entries(operations)) {
        const successor = document.paths[path.replace(/^\/staff/, "/admin")]?.[method];
        expect(successor, `${method} ${path}`).toBeDefined();
        expect(operation.deprecated).toBe(true);
        expect(successor.deprecated).toBeUndefined();
        expect(operation.operationId).toBe(`${successor.operationId}Legacy`);
        expect(operation.requestBody).toEqual(successor.requestBody);
        expect(operation["x-roles"]).toEqual(["staff"]);
      }
    }
    const adminOperations = Object.entries(document.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith("/admin/"))
      .flatMap(([, operations]) => Object.values(operations));
    expect(adminOperations.every((operation) => operation["x-roles"].join() === "staff")).toBe(true);
  });
});
