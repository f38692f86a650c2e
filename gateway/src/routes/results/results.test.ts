import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ExperimentStatus, PaymentSchema, ResultsRecordSchema } from "@petri/contracts/experiments";
import { Role, Tier } from "@petri/contracts/identity";
import { fromRestJson } from "@petri/contracts/rest-json";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { URL_TTL_SECONDS } from "../../../test/support/fake-experiments-loop.js";
import { FakeExperiments, gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { caller } from "../../../test/support/requests.js";
import { resultsRecordJson } from "../../../test/support/results-record.js";

const SOURCE = "198.51.100.120";
const CSV = "dose,od600\n0,0.91\n8,0.05\n";

let clock: FakeClock;
let identity: FakeIdentity;
let experiments: FakeExperiments;
let app: Awaited<ReturnType<typeof gatewayWithServices>>;
let requesterId: string;
let requesterKey: string;
let labKey: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  experiments = new FakeExperiments(clock);
  app = await gatewayWithServices(identity, { experiments });
  const requester = identity.addAccount({ tier: Tier.PRO });
  requesterId = requester.account.id;
  requesterKey = requester.secret;
  const lab = identity.addAccount({ role: Role.OPERATOR, tier: Tier.PRO });
  labKey = lab.secret;
  experiments.loop.operators.set(lab.account.id, {
    operatorId: "op_00000000000000000000000001",
    labName: "Lab One",
  });
  call = caller(app, SOURCE, () => requesterKey);
});

/** An experiment the lab claimed, ran and submitted results for (pending_approval). */
async function submitted() {
  const experiment = experiments.add(requesterId, ExperimentStatus.OPEN);
  const asLab = (path: string, body?: unknown) => call("POST", path, body, labKey);
  await asLab(`/operator/jobs/${experiment.id}/claim`, {
    equipment_confirmation: true,
    authorization_confirmation: true,
    estimated_start_date: "2026-03-03",
  });
  await asLab(`/operator/jobs/${experiment.id}/start`);
  await asLab(`/operator/jobs/${experiment.id}/issues`, {
    description: "one well dried out",
    severity: "low",
  });
  const submit = await asLab(`/operator/jobs/${experiment.id}/submit`, {
    hypothesis_supported: true,
    summary: "MIC 4 ug/mL",
    measurements: [{ metric: "MIC", value: 4, unit: "ug/mL", condition: "X" }],
    raw_data_uploads: [
      { name: "plate1.csv", format: "CSV", content_base64: Buffer.from(CSV).toString("base64") },
    ],
  });
  expect(submit.status).toBe(200);
  return experiment;
}

describe("GET /experiments/{id}/results", () => {
  it("gives the results record as the service wrote it, plus urls_expire_at", async () => {
    const experiment = await submitted();
    const response = await call("GET", `/experiments/${experiment.id}/results`);
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body).toEqual({
      experiment_id: experiment.id,
      hypothesis_supported: true,
      summary: "MIC 4 ug/mL",
      structured_data: {
        measurements: [{ metric: "MIC", value: 4, unit: "ug/mL", condition: "X" }],
        statistics: null,
      },
      operator_notes: "",
      status: "pending_approval",
      raw_data_files: [
        {
          name: "plate1.csv",
          format: "CSV",
          url: expect.stringMatching(/^\/files\/fil_\w+\?expires=\d+&signature=[\w-]+$/),
          checksum_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      ],
      urls_expire_at: new Date(clock.now().getTime() + URL_TTL_SECONDS * 1000).toISOString(),
    });
    expect(Object.keys(body).at(-1)).toBe("urls_expire_at");
    expect(experiments.calls.at(-1)?.principal).toMatchObject({ accountId: requesterId, role: "requester" });
  });

  it("writes the record from the typed message, which wins over the JSON text (D342)", async () => {
    const experiment = await submitted();
    experiments.loop.typedResults = fromRestJson(ResultsRecordSchema, resultsRecordJson);
    const body = await bodyOf(await call("GET", `/experiments/${experiment.id}/results`));
    expect(body).toEqual({
      ...resultsRecordJson,
      urls_expire_at: new Date(clock.now().getTime() + URL_TTL_SECONDS * 1000).toISOString(),
    });
    expect(Object.keys(body)).toEqual([...Object.keys(resultsRecordJson), "urls_expire_at"]);
  });

  it("is 409 invalid_state before results exist, and 404 for another account's experiment", async () => {
    const open = experiments.add(requesterId, ExperimentStatus.IN_PROGRESS);
    const early = await call("GET", `/experiments/${open.id}/results`);
    expect(early.status).toBe(409);
    expect((await bodyOf(early)).error).toMatchObject({
      code: "invalid_state",
      details: {
        status: "in_progress",
        allowed_from: ["pending_approval", "completed", "disputed", "resolved"],
      },
    });
    const experiment = await submitted();
    const stranger = identity.addAccount().secret;
    expect((await call("GET", `/experiments/${experiment.id}/results`, undefined, stranger)).status).toBe(
      404,
    );
  });
});

describe("POST /experiments/{id}/approve", () => {
  it("approves with a rating and feedback: completed, payment released", async () => {
    const experiment = await submitted();
    const response = await call("POST", `/experiments/${experiment.id}/approve`, {
      rating: 5,
      feedback: "clean work",
    });
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      experiment_id: experiment.id,
      status: "completed",
      payment_released: true,
    });
    expect(experiments.last("ApproveResults")).toMatchObject({ rating: 5, feedback: "clean work" });
    const again = await call("POST", `/experiments/${experiment.id}/approve`);
    expect(again.status).toBe(409);
    expect((await bodyOf(again)).error.details).toEqual({
      status: "completed",
      allowed_from: ["pending_approval"],
    });
  });

  it("the body is optional; rating is an integer 1-5 and feedback at most 2000 characters", async () => {
    const experiment = await submitted();
    for (const body of [
      { rating: 0 },
      { rating: 6 },
      { rating: 4.5 },
      { rating: "5" },
      { feedback: "x".repeat(2001) },
      { stars: 5 },
    ]) {
      const response = await call("POST", `/experiments/${experiment.id}/approve`, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((await bodyOf(response)).error.details.errors[0].path).toBe(Object.keys(body)[0]);
    }
    expect(experiments.count("ApproveResults")).toBe(0);
    expect((await call("POST", `/experiments/${experiment.id}/approve`)).status).toBe(200);
    expect(experiments.last("ApproveResults")).toMatchObject({ rating: 0, feedback: "" });
  });

  it("staff may read but not approve for the requester (403); another account gets 404", async () => {
    const experiment = await submitted();
    const staff = identity.addAccount({ role: Role.STAFF }).secret;
    expect((await call("POST", `/experiments/${experiment.id}/approve`, {}, staff)).status).toBe(403);
    const stranger = identity.addAccount().secret;
    expect((await call("POST", `/experiments/${experiment.id}/approve`, {}, stranger)).status).toBe(404);
  });
});

describe("POST /experiments/{id}/dispute", () => {
  it("201 {dispute_id, experiment_id, status}; the experiment then shows the dispute", async () => {
    const experiment = await submitted();
    const response = await call("POST", `/experiments/${experiment.id}/dispute`, {
      reason: "results_incorrect",
      description: "the positive control failed",
      evidence_urls: ["https://example.org/plate.png"],
    });
    expect(response.status).toBe(201);
    const body = await bodyOf(response);
    expect(body).toEqual({
      dispute_id: expect.stringMatching(/^dsp_/),
      experiment_id: experiment.id,
      status: "disputed",
    });
    expect(experiments.last("DisputeResults")).toMatchObject({
      reason: "results_incorrect",
      evidenceUrls: ["https://example.org/plate.png"],
    });
    const details = await bodyOf(await call("GET", `/experiments/${experiment.id}`));
    expect(details.dispute).toEqual({
      dispute_id: body.dispute_id,
      experiment_id: experiment.id,
      reason: "results_incorrect",
      description: "the positive control failed",
      evidence_urls: ["https://example.org/plate.png"],
      status: "open",
      raised_from: "pending_approval",
      outcome: null,
      requester_amount_usd: null,
      operator_amount_usd: null,
      resolution_note: null,
      created_at: "2026-03-02T10:00:00.000Z",
      resolved_at: null,
    });
  });

  it("checks reason, description and evidence URLs before the call", async () => {
    const experiment = await submitted();
    const cases: Array<[unknown, string]> = [
      [{ reason: "too_expensive", description: "x" }, "reason"],
      [{ reason: "other" }, "description"],
      [{ reason: "other", description: "  " }, "description"],
      [{ reason: "other", description: "x", evidence_urls: ["not a url"] }, "evidence_urls.0"],
      [{ reason: "other", description: "x", evidence_urls: ["javascript:alert(1)"] }, "evidence_urls.0"],
      [{ reason: "other", description: "x", evidence_urls: "https://example.org" }, "evidence_urls"],
    ];
    for (const [body, path] of cases) {
      const response = await call("POST", `/experiments/${experiment.id}/dispute`, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((await bodyOf(response)).error.details.errors[0].path).toBe(path);
    }
    expect(experiments.count("DisputeResults")).toBe(0);
  });
});

describe("the experiment record through the marketplace loop", () => {
  it("carries operator, issues, payment, approval, times and the links that apply", async () => {
    const experiment = await submitted();
    experiment.payment = create(PaymentSchema, {
      status: "held",
      heldCents: 41_250n,
      releasedCents: 0n,
      refundedCents: 0n,
      stillHeldCents: 41_250n,
      updatedAt: timestampFromDate(clock.now()),
    });
    const pending = await bodyOf(await call("GET", `/experiments/${experiment.id}`));
    expect(pending).toMatchObject({
      status: "pending_approval",
      payment: { status: "held", held_usd: 412.5, released_usd: 0, refunded_usd: 0, still_held_usd: 412.5 },
      operator: {
        operator_id: "op_00000000000000000000000001",
        lab_name: "Lab One",
        claimed_at: "2026-03-02T10:00:00.000Z",
        deadline: "2026-03-16T10:00:00.000Z",
        estimated_start_date: "2026-03-03",
      },
      issues: [
        {
          issue_id: expect.stringMatching(/^iss_/),
          description: "one well dried out",
          severity: "low",
          reported_at: "2026-03-02T10:00:00.000Z",
        },
      ],
      approval: null,
      started_at: "2026-03-02T10:00:00.000Z",
      results_submitted_at: "2026-03-02T10:00:00.000Z",
      completed_at: null,
    });
    expect(pending.links).toEqual({
      self: `/experiments/${experiment.id}`,
      results: `/experiments/${experiment.id}/results`,
      cancel: `/experiments/${experiment.id}`,
      approve: `/experiments/${experiment.id}/approve`,
      dispute: `/experiments/${experiment.id}/dispute`,
    });

    await clock.advance(3_600_000);
    await call("POST", `/experiments/${experiment.id}/approve`, { rating: 4 });
    const completed = await bodyOf(await call("GET", `/experiments/${experiment.id}`));
    expect(completed.approval).toEqual({
      rating: 4,
      feedback: null,
      approved_at: "2026-03-02T11:00:00.000Z",
    });
    expect(completed.completed_at).toBe("2026-03-02T11:00:00.000Z");
    expect(Object.keys(completed.links)).toEqual(["self", "results", "cancel", "dispute"]);

    const list = await bodyOf(await call("GET", "/experiments"));
    expect(Object.keys(list.experiments[0].links)).toEqual(["self", "results", "cancel", "dispute"]);
  });
});
