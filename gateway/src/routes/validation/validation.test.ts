import { Role, Tier } from "@petri/contracts/identity";
import { ValidationError, domainErrorToConnectError } from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeExperiments, gatewayWithExperiments } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf, from, json } from "../../../test/support/fake-identity.js";

const SOURCE = "198.51.100.61";

let identity: FakeIdentity;
let experiments: FakeExperiments;
let app: Awaited<ReturnType<typeof gatewayWithExperiments>>;
let apiKey: string;

beforeEach(async () => {
  const clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  experiments = new FakeExperiments(clock);
  app = await gatewayWithExperiments(identity, experiments);
  apiKey = identity.addAccount({ tier: Tier.PRO }).secret;
});

const post = (path: string, body: unknown, key = apiKey) =>
  app.request(path, json(body, { "x-api-key": key }), from(SOURCE));

describe("POST /validate", () => {
  it("passes any JSON object through and answers with the findings (200)", async () => {
    const request = { experiment_type: 42, hypothesis: "not an object", extra: [1] };
    const response = await post("/validate", request);
    expect(response.status).toBe(200);
    expect(JSON.parse(experiments.last("ValidateExperiment").requestJson)).toEqual(request);
    expect(await bodyOf(response)).toEqual({
      valid: false,
      errors: [{ path: "title", code: "missing_required", message: "required" }],
      warnings: [
        { path: "replicates.technical", code: "low_replicates", message: "few", suggestion: "use 3" },
      ],
      safety_flags: ["controlled_substance"],
    });
  });

  it("refuses a body that is not a JSON object", async () => {
    expect((await post("/validate", "[]")).status).toBe(422);
    expect(experiments.count("ValidateExperiment")).toBe(0);
  });

  it("is open to every role", async () => {
    for (const role of [Role.REQUESTER, Role.OPERATOR, Role.STAFF]) {
      const key = identity.addAccount({ role, tier: Tier.PRO }).secret;
      expect((await post("/validate", { title: "ok" }, key)).status).toBe(200);
    }
  });
});

describe("POST /validate/hypothesis", () => {
  it("sends the three fields ('' when absent) and answers valid, errors, suggestions", async () => {
    const response = await post("/validate/hypothesis", { statement: "X raises Y by 20% in Z cells" });
    expect(response.status).toBe(200);
    expect(experiments.last("ValidateHypothesis")).toMatchObject({
      statement: "X raises Y by 20% in Z cells",
      nullHypothesis: "",
      rationale: "",
    });
    expect(await bodyOf(response)).toEqual({
      valid: true,
      errors: [],
      suggestions: ["name a measurable outcome"],
    });
  });

  it("is strict about its fields", async () => {
    const response = await post("/validate/hypothesis", { statement: "s", why: "no" });
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).error.details.errors[0]).toMatchObject({ path: "why", field: "why" });
  });
});

describe("POST /estimate", () => {
  it("takes a partial body and answers in USD", async () => {
    const response = await post("/estimate", { experiment_type: "QPCR_EXPRESSION" });
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
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
    });
    expect(JSON.parse(experiments.last("EstimateExperiment").requestJson)).toEqual({
      experiment_type: "QPCR_EXPRESSION",
    });
  });

  it("maps the service's validation errors with paths", async () => {
    experiments.failures.set("EstimateExperiment", () =>
      domainErrorToConnectError(
        new ValidationError("cannot estimate", [
          { field: "experiment_type", code: "invalid_experiment_type", message: "unknown" },
        ]),
      ),
    );
    const response = await post("/estimate", { experiment_type: "NOPE" });
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).error.details.errors).toEqual([
      {
        field: "experiment_type",
        path: "experiment_type",
        code: "invalid_experiment_type",
        message: "unknown",
      },
    ]);
  });
});
