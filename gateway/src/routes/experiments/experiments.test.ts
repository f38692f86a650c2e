import { Code, ConnectError } from "@connectrpc/connect";
import { ExperimentStatus, OperatorAssignmentSchema } from "@petri/contracts/experiments";
import { Role, Tier } from "@petri/contracts/identity";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  ConflictError,
  SafetyRejectedError,
  ValidationError,
  domainErrorToConnectError,
} from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeExperiments, gatewayWithExperiments } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf, from } from "../../../test/support/fake-identity.js";

const SOURCE = "198.51.100.60";
const REQUEST = {
  experiment_type: "MIC_MBC_ASSAY",
  title: "MIC of compound X against E. coli",
  hypothesis: { statement: "Compound X inhibits E. coli growth below 8 ug/mL" },
  mic_mbc: { organism: "E. coli", strain: "ATCC 25922", compound_name: "X" },
  unknown_section: { kept: true },
};

let clock: FakeClock;
let identity: FakeIdentity;
let experiments: FakeExperiments;
let app: Awaited<ReturnType<typeof gatewayWithExperiments>>;
let accountId: string;
let apiKey: string;

beforeEach(async () => {
  clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  experiments = new FakeExperiments(clock);
  app = await gatewayWithExperiments(identity, experiments);
  ({
    account: { id: accountId },
    secret: apiKey,
  } = identity.addAccount({ tier: Tier.PRO }));
});

function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  key = apiKey,
) {
  return app.request(
    path,
    {
      method,
      headers: {
        "x-api-key": key,
        ...(body !== undefined && { "content-type": "application/json" }),
        ...headers,
      },
      ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
    },
    from(SOURCE),
  );
}

describe("POST /experiments", () => {
  it("201 with the submission in USD, links, warnings and Location; the body goes to the service as sent", async () => {
    const response = await call("POST", "/experiments", REQUEST);
    expect(response.status).toBe(201);
    expect(response.headers.get("idempotent-replayed")).toBeNull();
    const body = await bodyOf(response);
    expect(body).toEqual({
      experiment_id: expect.stringMatching(/^exp_/),
      status: "open",
      created_at: "2026-03-02T10:00:00.000Z",
      estimated_cost_usd: 412.5,
      estimated_turnaround_days: 14,
      links: {
        self: `/experiments/${body.experiment_id}`,
        results: `/experiments/${body.experiment_id}/results`,
        cancel: `/experiments/${body.experiment_id}`,
      },
      warnings: [
        {
          path: "replicates.technical",
          code: "low_replicates",
          message: "fewer than 3 technical replicates",
          suggestion: "use 3",
        },
        { path: "title", code: "short_title", message: "short", suggestion: null },
      ],
    });
    expect(Object.keys(body)).toEqual([
      "experiment_id",
      "status",
      "created_at",
      "estimated_cost_usd",
      "estimated_turnaround_days",
      "links",
      "warnings",
    ]);
    expect(response.headers.get("location")).toBe(body.links.self);
    const sent = experiments.last("CreateExperiment");
    expect(JSON.parse(sent.requestJson)).toEqual(REQUEST);
    expect(sent).toMatchObject({ saveAsDraft: false, idempotencyKey: "" });
    expect(experiments.calls.map((c) => c.principal?.accountId)).toEqual([accountId]);
  });

  it("?draft=true saves a draft; other values of draft are 422 without a call", async () => {
    const draft = await call("POST", "/experiments?draft=true", { title: "half done" });
    expect(draft.status).toBe(201);
    expect((await bodyOf(draft)).status).toBe("draft");
    expect(experiments.last("CreateExperiment").saveAsDraft).toBe(true);
    const invalid = await call("POST", "/experiments?draft=yes", { title: "half done" });
    expect(invalid.status).toBe(422);
    expect((await bodyOf(invalid)).error.details.errors).toEqual([
      expect.objectContaining({ field: "draft", path: "draft", code: "invalid_value" }),
    ]);
    expect(experiments.count("CreateExperiment")).toBe(1);
  });

  it("replays the first answer byte for byte with Idempotent-Replayed: true", async () => {
    const headers = { "idempotency-key": "order-42" };
    const first = await call("POST", "/experiments", REQUEST, headers);
    const firstText = await first.text();
    await clock.advance(60_000);
    const again = await call("POST", "/experiments", REQUEST, headers);
    expect(again.status).toBe(first.status);
    expect(await again.text()).toBe(firstText);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(experiments.last("CreateExperiment").idempotencyKey).toBe("order-42");
    expect(experiments.experiments.size).toBe(1);

    const other = await call("POST", "/experiments", { ...REQUEST, title: "Another title here" }, headers);
    expect(other.status).toBe(422);
    expect((await bodyOf(other)).error.code).toBe("idempotency_key_reused");
  });

  it("a concurrent duplicate the service refuses is 409", async () => {
    experiments.failures.set("CreateExperiment", () =>
      domainErrorToConnectError(
        new ConflictError("a request with this key is in progress", "idempotency_key_in_use", {
          retryable: true,
        }),
      ),
    );
    const response = await call("POST", "/experiments", REQUEST, { "idempotency-key": "k" });
    expect(response.status).toBe(409);
    expect((await bodyOf(response)).error.code).toBe("idempotency_key_in_use");
  });

  it.each([["x".repeat(256)], ["caf\u00e9"], [""]])(
    "Idempotency-Key %j is 422 without a call",
    async (key) => {
      const response = await call("POST", "/experiments", REQUEST, { "idempotency-key": key });
      expect(response.status).toBe(422);
      expect((await bodyOf(response)).error.details.errors[0]).toMatchObject({
        path: "Idempotency-Key",
        code: "invalid_value",
      });
      expect(experiments.count("CreateExperiment")).toBe(0);
    },
  );

  it("422 validation_failed carries the service's errors with their request paths", async () => {
    experiments.failures.set("CreateExperiment", () =>
      domainErrorToConnectError(
        new ValidationError("the request is invalid", [
          { field: "hypothesis.statement", code: "missing_required", message: "required" },
          { field: "mic_mbc.concentration_range.min", code: "invalid_value", message: "must be > 0" },
        ]),
      ),
    );
    const response = await call("POST", "/experiments", REQUEST);
    expect(response.status).toBe(422);
    expect(await bodyOf(response)).toEqual({
      error: {
        code: "validation_failed",
        message: "the request is invalid",
        details: {
          errors: [
            {
              field: "hypothesis.statement",
              path: "hypothesis.statement",
              code: "missing_required",
              message: "required",
            },
            {
              field: "mic_mbc.concentration_range.min",
              path: "mic_mbc.concentration_range.min",
              code: "invalid_value",
              message: "must be > 0",
            },
          ],
        },
      },
    });
  });

  it("403 safety_rejected carries details.safety_flags", async () => {
    const response = await call("POST", "/experiments", { ...REQUEST, compliance: { bsl: "BSL-3" } });
    expect(response.status).toBe(403);
    expect(await bodyOf(response)).toEqual({
      error: {
        code: "safety_rejected",
        message: "unsafe",
        details: { safety_flags: ["bsl_level_exceeded"] },
      },
    });
    experiments.failures.set("CreateExperiment", () =>
      domainErrorToConnectError(
        new SafetyRejectedError("controlled", {
          safety_flags: ["controlled_substance"],
          findings: [{ flag: "controlled_substance", path: "mic_mbc.compound_name" }],
        }),
      ),
    );
    const flagged = await bodyOf(await call("POST", "/experiments", REQUEST));
    expect(flagged.error.details.safety_flags).toEqual(["controlled_substance"]);
    expect(flagged.error.details.findings[0].path).toBe("mic_mbc.compound_name");
  });

  it("the body must be a JSON object of at most the size limit; JSON only", async () => {
    for (const body of ["[1,2]", '"text"', "null", "{oops"]) {
      const response = await call("POST", "/experiments", body);
      expect(response.status, body).toBe(422);
      expect((await bodyOf(response)).error.code).toBe("validation_failed");
    }
    const big = await call("POST", "/experiments", { ...REQUEST, notes: "x".repeat(5_000) });
    expect(big.status).toBe(413);
    const text = await app.request(
      "/experiments",
      { method: "POST", headers: { "x-api-key": apiKey, "content-type": "text/plain" }, body: "{}" },
      from(SOURCE),
    );
    expect(text.status).toBe(415);
    expect(experiments.count("CreateExperiment")).toBe(0);
  });

  it("needs credentials", async () => {
    const response = await app.request(
      "/experiments",
      { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
      from(SOURCE),
    );
    expect(response.status).toBe(401);
  });
});

describe("POST /experiments/{id}/submit", () => {
  it("moves a draft on and answers like a create (200)", async () => {
    const draft = experiments.add(accountId, ExperimentStatus.DRAFT);
    const response = await call("POST", `/experiments/${draft.id}/submit`);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toMatchObject({ experiment_id: draft.id, status: "open", warnings: [] });
    const again = await call("POST", `/experiments/${draft.id}/submit`);
    expect(again.status).toBe(409);
    expect((await bodyOf(again)).error).toMatchObject({
      code: "invalid_state",
      details: { status: "open", allowed_from: ["draft"] },
    });
  });
});

describe("GET /experiments", () => {
  it("maps filters to the service and pages with an opaque cursor", async () => {
    for (let i = 0; i < 3; i += 1) experiments.add(accountId, ExperimentStatus.OPEN, { title: `t${i}` });
    const first = await call(
      "GET",
      "/experiments?status=open&created_after=2026-03-01T00:00:00Z&created_before=2026-03-03T00:00:00.000%2B01:00&limit=2&include_total=true",
    );
    expect(first.status).toBe(200);
    const page = await bodyOf(first);
    expect(page.pagination).toEqual({ total: 3, cursor: expect.any(String), has_more: true });
    expect(experiments.last("ListExperiments").includeTotal).toBe(true);
    expect(page.experiments).toHaveLength(2);
    expect(page.experiments[0]).toEqual({
      experiment_id: expect.stringMatching(/^exp_/),
      status: "open",
      experiment_type: "MIC_MBC_ASSAY",
      title: "t2",
      estimated_cost_usd: 412.5,
      estimated_turnaround_days: 14,
      review_reasons: [],
      created_at: "2026-03-02T10:00:00.000Z",
      updated_at: "2026-03-02T10:00:00.000Z",
      links: expect.objectContaining({ self: `/experiments/${page.experiments[0].experiment_id}` }),
    });
    const sent = experiments.last("ListExperiments");
    expect(sent.status).toBe(ExperimentStatus.OPEN);
    expect(sent.limit).toBe(2);
    expect(sent.createdAfter.seconds).toBe(BigInt(Date.parse("2026-03-01T00:00:00Z") / 1000));
    expect(sent.createdBefore.seconds).toBe(BigInt(Date.parse("2026-03-02T23:00:00Z") / 1000));

    const second = await bodyOf(await call("GET", `/experiments?limit=2&cursor=${page.pagination.cursor}`));
    expect(second.experiments).toHaveLength(1);
    // Not asked for, so not counted: null.
    expect(second.pagination).toEqual({ total: null, cursor: null, has_more: false });
    expect(experiments.last("ListExperiments")).toMatchObject({
      cursor: page.pagination.cursor,
      includeTotal: false,
    });
    expect((await call("GET", "/experiments?include_total=yes")).status).toBe(422);
  });

  it("limit defaults to 20", async () => {
    await call("GET", "/experiments");
    expect(experiments.last("ListExperiments")).toMatchObject({ limit: 20, cursor: "", status: 0 });
  });

  it.each([
    "limit=0",
    "limit=101",
    "limit=abc",
    "limit=2.5",
    "status=archived",
    "created_after=yesterday",
    "created_before=2026-03-01",
    "cursor=",
  ])("GET /experiments?%s is 422 without a call", async (query) => {
    const response = await call("GET", `/experiments?${query}`);
    expect(response.status).toBe(422);
    const body = await bodyOf(response);
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.details.errors[0].path).toBe(query.split("=")[0]);
    expect(experiments.count("ListExperiments")).toBe(0);
  });
});

describe("GET /experiments/{id}", () => {
  it("gives the full details: request, estimate in USD, operator, cancellation", async () => {
    const experiment = experiments.add(accountId, ExperimentStatus.CLAIMED, REQUEST);
    experiment.safetyFlags = ["human_subjects"];
    experiment.operator = create(OperatorAssignmentSchema, {
      operatorId: "op_1",
      labName: "Lab One",
      claimedAt: timestampFromDate(new Date("2026-03-02T11:00:00Z")),
      deadline: timestampFromDate(new Date("2026-03-16T11:00:00Z")),
    });
    const response = await call("GET", `/experiments/${experiment.id}`);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      experiment_id: experiment.id,
      status: "claimed",
      experiment_type: "MIC_MBC_ASSAY",
      title: REQUEST.title,
      requester_account_id: accountId,
      request: REQUEST,
      estimate: {
        estimated_cost_usd: { low: 300, typical: 412.5, high: 550.75 },
        estimated_turnaround_days: { standard: 14, expedited: 10 },
        cost_breakdown: {
          materials: 100.01,
          labor: 150,
          equipment: 50,
          platform_fee: 61.25,
          privacy_premium: 51.24,
        },
        operator_availability: "medium",
      },
      hold_amount_usd: 412.5,
      payment: null,
      operator: {
        operator_id: "op_1",
        lab_name: "Lab One",
        claimed_at: "2026-03-02T11:00:00.000Z",
        deadline: "2026-03-16T11:00:00.000Z",
        estimated_start_date: null,
      },
      issues: [],
      approval: null,
      dispute: null,
      review_reasons: [],
      safety_flags: ["human_subjects"],
      protocol_proposal: null,
      cancellation: null,
      source_hypothesis_id: null,
      created_at: "2026-03-02T10:00:00.000Z",
      updated_at: "2026-03-02T10:00:00.000Z",
      submitted_at: "2026-03-02T10:00:00.000Z",
      started_at: null,
      results_submitted_at: null,
      completed_at: null,
      links: {
        self: `/experiments/${experiment.id}`,
        results: `/experiments/${experiment.id}/results`,
        cancel: `/experiments/${experiment.id}`,
      },
    });
  });

  it("another account's experiment is 404, the same as one that does not exist", async () => {
    const other = identity.addAccount();
    const theirs = experiments.add(other.account.id, ExperimentStatus.OPEN);
    const response = await call("GET", `/experiments/${theirs.id}`);
    expect(response.status).toBe(404);
    const missing = await call("GET", "/experiments/exp_nope");
    expect(missing.status).toBe(404);
    expect((await bodyOf(response)).error.code).toBe("not_found");
  });
});

describe("PATCH /experiments/{id}", () => {
  it("sends the patch as JSON and answers with the updated details", async () => {
    const experiment = experiments.add(accountId, ExperimentStatus.OPEN, REQUEST);
    const patch = {
      constraints: { budget_max_usd: 900 },
      turnaround_priority: "expedited",
      turnaround_days: null,
    };
    const response = await call("PATCH", `/experiments/${experiment.id}`, patch);
    expect(response.status).toBe(200);
    expect(JSON.parse(experiments.last("UpdateExperiment").patchJson)).toEqual(patch);
    expect((await bodyOf(response)).request.constraints).toEqual({ budget_max_usd: 900 });
  });

  it("after a claim: 409 invalid_state with details.status and details.allowed_from", async () => {
    const experiment = experiments.add(accountId, ExperimentStatus.CLAIMED);
    const response = await call("PATCH", `/experiments/${experiment.id}`, { turnaround_days: 20 });
    expect(response.status).toBe(409);
    expect(await bodyOf(response)).toEqual({
      error: {
        code: "invalid_state",
        message: "cannot do this while claimed",
        details: { status: "claimed", allowed_from: ["draft", "pending_review", "open"] },
      },
    });
  });

  it("an empty patch or another field is 422 without a call", async () => {
    const experiment = experiments.add(accountId, ExperimentStatus.OPEN);
    const empty = await call("PATCH", `/experiments/${experiment.id}`, {});
    expect(empty.status).toBe(422);
    expect((await bodyOf(empty)).error.details.errors[0].message).toMatch(/at least one of/);
    const other = await call("PATCH", `/experiments/${experiment.id}`, { title: "new" });
    expect(other.status).toBe(422);
    expect((await bodyOf(other)).error.details.errors).toEqual([
      { field: "title", path: "title", code: "invalid_value", message: "unknown field" },
    ]);
    expect(experiments.count("UpdateExperiment")).toBe(0);
  });

  it("another account's experiment is 404", async () => {
    const theirs = experiments.add(identity.addAccount().account.id, ExperimentStatus.OPEN);
    expect((await call("PATCH", `/experiments/${theirs.id}`, { turnaround_days: 9 })).status).toBe(404);
  });
});

describe("DELETE /experiments/{id}", () => {
  it("cancels with the reason and reports the refund in USD", async () => {
    const experiment = experiments.add(accountId, ExperimentStatus.CLAIMED);
    const response = await call("DELETE", `/experiments/${experiment.id}`, { reason: "funding withdrawn" });
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      experiment_id: experiment.id,
      status: "cancelled",
      reason: "funding withdrawn",
      refund_amount_usd: 330,
      refund_status: "partial",
      operator_compensation_usd: 82.5,
      cancelled_at: "2026-03-02T10:00:00.000Z",
    });
    expect(experiments.last("CancelExperiment")).toMatchObject({ reason: "funding withdrawn" });
    const again = await call("DELETE", `/experiments/${experiment.id}`, { reason: "again" });
    expect(again.status).toBe(409);
    expect((await bodyOf(again)).error.details.status).toBe("cancelled");
  });

  it("needs a reason", async () => {
    const experiment = experiments.add(accountId, ExperimentStatus.OPEN);
    for (const body of [undefined, {}, { reason: "  " }]) {
      const response = await call("DELETE", `/experiments/${experiment.id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((await bodyOf(response)).error.details.errors[0].path).toBe("reason");
    }
    expect(experiments.count("CancelExperiment")).toBe(0);
  });

  it("another account's experiment is 404", async () => {
    const theirs = experiments.add(identity.addAccount().account.id, ExperimentStatus.OPEN);
    expect((await call("DELETE", `/experiments/${theirs.id}`, { reason: "mine now" })).status).toBe(404);
  });
});

describe("protocol proposals (requester side)", () => {
  it("accept opens the experiment; request-changes sends the comments", async () => {
    const experiment = experiments.add(accountId, ExperimentStatus.PENDING_REVIEW);
    const none = await call("POST", `/experiments/${experiment.id}/protocol-proposal/accept`);
    expect(none.status).toBe(409);
    expect((await bodyOf(none)).error.code).toBe("no_pending_proposal");

    experiment.protocolProposalJson = JSON.stringify({
      revision: 1,
      status: "proposed",
      protocol: { steps: [] },
    });
    const changes = await call("POST", `/experiments/${experiment.id}/protocol-proposal/request-changes`, {
      comments: "add a positive control",
    });
    expect(changes.status).toBe(200);
    expect(experiments.last("RequestProtocolChanges").comments).toBe("add a positive control");
    expect((await bodyOf(changes)).protocol_proposal).toMatchObject({ revision: 1, status: "proposed" });

    const accepted = await call("POST", `/experiments/${experiment.id}/protocol-proposal/accept`);
    expect(accepted.status).toBe(200);
    expect((await bodyOf(accepted)).status).toBe("open");
  });
});

describe("one Connect hop per request, and errors are never flattened", () => {
  it("each operation makes exactly one experiments call", async () => {
    const experiment = experiments.add(accountId, ExperimentStatus.OPEN);
    await call("GET", `/experiments/${experiment.id}`);
    await call("GET", "/experiments");
    await call("POST", "/experiments", REQUEST);
    expect(experiments.calls.map((c) => c.method)).toEqual([
      "GetExperiment",
      "ListExperiments",
      "CreateExperiment",
    ]);
  });

  it("Unavailable is 503 and an unknown failure is 500 with the request id", async () => {
    experiments.failures.set("GetExperiment", () => new ConnectError("down", Code.Unavailable));
    expect((await call("GET", "/experiments/exp_00000000000000000000000001")).status).toBe(503);
    experiments.failures.set("GetExperiment", () => new Error("SELECT * FROM experiments failed"));
    const response = await call("GET", "/experiments/exp_00000000000000000000000001");
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("SELECT");
  });

  it("staff see any experiment (the service decides)", async () => {
    const staff = identity.addAccount({ role: Role.STAFF, tier: Tier.PRO }).secret;
    const theirs = experiments.add(identity.addAccount().account.id, ExperimentStatus.OPEN);
    expect((await call("GET", `/experiments/${theirs.id}`, undefined, {}, staff)).status).toBe(200);
  });
});

describe("the OpenAPI description of the request model", () => {
  it("documents the sections, the 8 type sections and the enums, and the create's headers", async () => {
    const document = await bodyOf(await app.request("/openapi.json", {}, from(SOURCE)));
    const model = document.components.schemas.ExperimentRequest;
    expect(model.required).toEqual(["experiment_type", "title", "hypothesis"]);
    expect(model.properties.experiment_type.enum).toHaveLength(8);
    expect(model.properties.privacy.enum).toEqual(["open", "delayed_6mo", "delayed_12mo", "private"]);
    expect(model.properties.turnaround_budget.properties.priority.enum).toEqual([
      "standard",
      "expedited",
      "urgent",
    ]);
    // Every spelling the service reads (BSL1, bsl-2, "BSL 1", 2), not a list of four.
    const bsl = model.properties.compliance.properties.bsl as unknown as {
      anyOf: Array<{ type: string; pattern?: string }>;
    };
    const bslPattern = new RegExp(bsl.anyOf.find((schema) => schema.type === "string")!.pattern!);
    for (const spelling of ["BSL1", "BSL-1", "bsl-2", "BSL 2", "BSL_1", "2"])
      expect(spelling, spelling).toMatch(bslPattern);
    for (const spelling of ["BSL-5", "BSL", "level 2"]) expect(spelling, spelling).not.toMatch(bslPattern);
    for (const section of [
      "sanger",
      "qpcr",
      "cell_viability",
      "enzyme_inhibition",
      "microbial_growth",
      "mic_mbc",
      "zone_of_inhibition",
      "custom_protocol",
    ]) {
      expect(model.properties[section]?.type, section).toBe("object");
    }
    const create = document.paths["/experiments"].post;
    expect(create.parameters.map((p: { name: string }) => p.name)).toEqual(["Idempotency-Key", "draft"]);
    expect(Object.keys(create.responses["201"].headers)).toEqual(
      expect.arrayContaining(["Location", "Idempotent-Replayed"]),
    );
    expect(document.components.schemas.PartialExperimentRequest.required).toBeUndefined();
  });
});
