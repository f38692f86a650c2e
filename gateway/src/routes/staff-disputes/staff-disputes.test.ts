import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  AcceptanceEvaluationSchema,
  DisputeSchema,
  ExperimentStatus,
  OperatorAssignmentSchema,
  ResultsRecordSchema,
} from "@petri/contracts/experiments";
import { Role, Tier } from "@petri/contracts/identity";
import { fromRestJson } from "@petri/contracts/rest-json";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeExperiments, gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { caller } from "../../../test/support/requests.js";
import { evaluationJson, resultsRecordJson } from "../../../test/support/results-record.js";

const SOURCE = "198.51.100.190";

let clock: FakeClock;
let identity: FakeIdentity;
let experiments: FakeExperiments;
let requesterId: string;
let staffId: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  experiments = new FakeExperiments(clock);
  const app = await gatewayWithServices(identity, { experiments });
  requesterId = identity.addAccount().account.id;
  const staff = identity.addAccount({ role: Role.STAFF, tier: Tier.PRO });
  staffId = staff.account.id;
  call = caller(app, SOURCE, () => staff.secret);
});

/** A disputed experiment (held: 412.50 USD) with its results and open dispute. */
function disputed(status = "open") {
  const experiment = experiments.add(requesterId, ExperimentStatus.DISPUTED);
  experiment.operator = create(OperatorAssignmentSchema, {
    operatorId: "op_00000000000000000000000001",
    labName: "Lab One",
  });
  const dispute = create(DisputeSchema, {
    id: experiments.loop.nextId("dsp"),
    experimentId: experiment.id,
    reason: "results_incorrect",
    description: "the positive control failed",
    status,
    raisedFrom: "pending_approval",
    createdAt: timestampFromDate(clock.now()),
    requesterAccountId: requesterId,
    operatorId: "op_00000000000000000000000001",
  });
  experiments.loop.disputes.set(dispute.id, dispute);
  experiment.dispute = dispute;
  experiments.loop.results.set(experiment.id, { experiment_id: experiment.id, summary: "MIC 4 ug/mL" });
  return { experiment, dispute };
}

describe("staff disputes", () => {
  it("are staff only: a requester gets 403 without a call", async () => {
    const { dispute } = disputed();
    const requester = identity.addAccount().secret;
    for (const [method, path, body] of [
      ["GET", "/admin/disputes"],
      ["GET", `/admin/disputes/${dispute.id}`],
      ["POST", `/admin/disputes/${dispute.id}/resolve`, { outcome: "requester" }],
    ] as const) {
      expect((await call(method, path, body, requester)).status, path).toBe(403);
    }
    expect(experiments.calls).toHaveLength(0);
  });

  it("GET /admin/disputes lists them by status with the staff fields, paged", async () => {
    const first = disputed();
    disputed("resolved");
    const page = await bodyOf(await call("GET", "/admin/disputes?status=open&limit=5"));
    expect(page.pagination).toEqual({ total: 1, cursor: null, has_more: false });
    expect(page.disputes).toEqual([
      {
        dispute_id: first.dispute.id,
        experiment_id: first.experiment.id,
        reason: "results_incorrect",
        description: "the positive control failed",
        evidence_urls: [],
        status: "open",
        raised_from: "pending_approval",
        outcome: null,
        requester_amount_usd: null,
        operator_amount_usd: null,
        resolution_note: null,
        created_at: "2026-03-02T10:00:00.000Z",
        resolved_at: null,
        requester_account_id: requesterId,
        operator_id: "op_00000000000000000000000001",
        resolved_by: null,
      },
    ]);
    expect(experiments.last("ListDisputes")).toMatchObject({ status: "open", limit: 5, cursor: "" });
    expect((await bodyOf(await call("GET", "/admin/disputes"))).pagination.total).toBe(2);
    const counted = await bodyOf(await call("GET", "/admin/disputes?limit=1&include_total=true"));
    expect(counted.pagination).toEqual({ total: 2, cursor: expect.any(String), has_more: true });
    const uncounted = await bodyOf(await call("GET", "/admin/disputes?limit=1"));
    expect(uncounted.pagination).toEqual({ total: null, cursor: expect.any(String), has_more: true });
    expect((await call("GET", "/admin/disputes?status=closed")).status).toBe(422);
  });

  it("GET /admin/disputes/{id} gives the dispute, the experiment, the results and the evaluation", async () => {
    const { experiment, dispute } = disputed();
    const response = await call("GET", `/admin/disputes/${dispute.id}`);
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(Object.keys(body)).toEqual(["dispute", "experiment", "results", "evaluation"]);
    expect(body.dispute).toMatchObject({
      dispute_id: dispute.id,
      status: "open",
      operator_id: "op_00000000000000000000000001",
    });
    expect(body.experiment).toMatchObject({ experiment_id: experiment.id, status: "disputed" });
    // Like GET /experiments/{id}/results: the signed file URLs come with their expiry.
    expect(body.results).toEqual({
      experiment_id: experiment.id,
      summary: "MIC 4 ug/mL",
      urls_expire_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(body.evaluation).toEqual({ verdict: "fail", reasons: ["MIC above 8 ug/mL"], flags: [] });
    expect((await call("GET", "/admin/disputes/dsp_nope")).status).toBe(404);
  });

  it("GET /admin/disputes/{id} writes the results and evaluation from their typed messages (D342)", async () => {
    const { dispute } = disputed();
    experiments.loop.typedResults = fromRestJson(ResultsRecordSchema, resultsRecordJson);
    experiments.loop.typedEvaluation = fromRestJson(AcceptanceEvaluationSchema, evaluationJson);
    const body = await bodyOf(await call("GET", `/admin/disputes/${dispute.id}`));
    // The typed forms win over the JSON text the service writes beside them.
    expect(body.results).toEqual({ ...resultsRecordJson, urls_expire_at: expect.any(String) });
    expect(body.evaluation).toEqual(evaluationJson);
    expect(Object.keys(body.evaluation)).toEqual(Object.keys(evaluationJson));
  });
});

describe("POST /admin/disputes/{id}/resolve", () => {
  it("a split in USD reaches the service as exact cents ('19.99' -> 1999, 392.51 -> 39251)", async () => {
    const { experiment, dispute } = disputed();
    const response = await call("POST", `/admin/disputes/${dispute.id}/resolve`, {
      outcome: "split",
      requester_amount_usd: "19.99",
      operator_amount_usd: 392.51,
      note: "half the plates were usable",
    });
    expect(response.status).toBe(200);
    expect(experiments.last("ResolveDispute")).toMatchObject({
      disputeId: dispute.id,
      outcome: "split",
      requesterAmountCents: 1999n,
      operatorAmountCents: 39251n,
      note: "half the plates were usable",
    });
    const body = await bodyOf(response);
    expect(body.dispute).toMatchObject({
      status: "resolved",
      outcome: "split",
      requester_amount_usd: 19.99,
      operator_amount_usd: 392.51,
      resolution_note: "half the plates were usable",
      resolved_by: staffId,
      resolved_at: "2026-03-02T10:00:00.000Z",
    });
    expect(body.experiment).toMatchObject({ experiment_id: experiment.id, status: "resolved" });
    expect(experiments.calls.at(-1)?.principal).toMatchObject({ accountId: staffId, role: "staff" });

    const again = await call("POST", `/admin/disputes/${dispute.id}/resolve`, { outcome: "operator" });
    expect(again.status).toBe(409);
    expect((await bodyOf(again)).error.details).toEqual({ status: "resolved", allowed_from: ["open"] });
  });

  it("amounts that floats cannot hold convert without drift (4.35 + 408.15 = 412.50)", async () => {
    const { dispute } = disputed();
    const response = await call("POST", `/admin/disputes/${dispute.id}/resolve`, {
      outcome: "split",
      requester_amount_usd: 4.35,
      operator_amount_usd: 408.15,
    });
    expect(response.status).toBe(200);
    expect(experiments.last("ResolveDispute")).toMatchObject({
      requesterAmountCents: 435n,
      operatorAmountCents: 40815n,
    });
  });

  it("requester and operator outcomes move the whole stake and take no amounts", async () => {
    const { dispute } = disputed();
    const response = await call("POST", `/admin/disputes/${dispute.id}/resolve`, { outcome: "requester" });
    expect(response.status).toBe(200);
    expect(experiments.last("ResolveDispute")).toMatchObject({
      outcome: "requester",
      requesterAmountCents: 0n,
      operatorAmountCents: 0n,
      note: "",
    });
    expect((await bodyOf(response)).dispute).toMatchObject({
      requester_amount_usd: 412.5,
      operator_amount_usd: 0,
    });
  });

  it("refuses amounts with more than two decimals, negatives, missing or surplus amounts, before any call", async () => {
    const { dispute } = disputed();
    const split = { outcome: "split", requester_amount_usd: 206.25, operator_amount_usd: 206.25 };
    const cases: Array<[unknown, string, string]> = [
      [{ ...split, requester_amount_usd: 0.1 + 0.2 }, "requester_amount_usd", "invalid_value"],
      [{ ...split, requester_amount_usd: "19.999" }, "requester_amount_usd", "invalid_value"],
      [{ ...split, operator_amount_usd: -1 }, "operator_amount_usd", "invalid_value"],
      [{ ...split, operator_amount_usd: "1e2" }, "operator_amount_usd", "invalid_value"],
      [{ ...split, operator_amount_usd: true }, "operator_amount_usd", "invalid_value"],
      [{ outcome: "split", requester_amount_usd: 412.5 }, "operator_amount_usd", "missing_required"],
      [{ outcome: "operator", operator_amount_usd: 412.5 }, "operator_amount_usd", "invalid_value"],
      [{ outcome: "draw" }, "outcome", "invalid_value"],
    ];
    for (const [body, path, code] of cases) {
      const response = await call("POST", `/admin/disputes/${dispute.id}/resolve`, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((await bodyOf(response)).error.details.errors[0], JSON.stringify(body)).toMatchObject({
        path,
        code,
      });
    }
    expect(experiments.count("ResolveDispute")).toBe(0);
  });

  it("a split that does not add up to the stake is the service's 422", async () => {
    const { dispute } = disputed();
    const response = await call("POST", `/admin/disputes/${dispute.id}/resolve`, {
      outcome: "split",
      requester_amount_usd: 100,
      operator_amount_usd: 100,
    });
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).error.code).toBe("validation_failed");
  });
});
