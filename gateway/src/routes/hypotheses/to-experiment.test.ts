import { ExperimentStatus } from "@petri/contracts/experiments";
import { Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeExperiments, gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeHypotheses } from "../../../test/support/fake-hypotheses.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { caller } from "../../../test/support/requests.js";

const SOURCE = "198.51.100.171";

let hypotheses: FakeHypotheses;
let experiments: FakeExperiments;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  const clock = new FakeClock("2026-12-16T09:00:00.000Z");
  const identity = await FakeIdentity.create(clock);
  hypotheses = new FakeHypotheses(clock);
  experiments = new FakeExperiments(clock);
  const app = await gatewayWithServices(identity, { experiments, hypotheses });
  const account = identity.addAccount({ tier: Tier.PRO });
  call = caller(app, SOURCE, () => account.secret);
});

async function savedHypothesis() {
  const response = await call("POST", "/hypotheses", {
    title: "Compound A against E. coli",
    statement: "Compound A inhibits E. coli at 8 ug/mL or less.",
    experiment_type: "MIC_MBC_ASSAY",
  });
  return (await bodyOf(response)).id as string;
}

describe("POST /hypotheses/{id}/to-experiment", () => {
  it("creates the prepared request with the prepared key and the source, and leaves the link to the event", async () => {
    const id = await savedHypothesis();
    const response = await call(
      "POST",
      `/hypotheses/${id}/to-experiment`,
      { additional_fields: { privacy: "private" } },
      undefined,
      { "idempotency-key": "mine-1" },
    );
    expect(response.status).toBe(201);
    const body = await bodyOf(response);
    expect(response.headers.get("location")).toBe(`/experiments/${body.experiment_id}`);
    expect(JSON.parse(hypotheses.last("PrepareExperimentFromHypothesis").additionalFieldsJson)).toEqual({
      privacy: "private",
    });
    expect(hypotheses.last("PrepareExperimentFromHypothesis").idempotencyKey).toBe("mine-1");
    const created = experiments.last("CreateExperiment");
    expect(created).toMatchObject({
      idempotencyKey: `to-experiment:${id}:mine-1`,
      sourceHypothesisId: id,
      saveAsDraft: false,
    });
    expect(JSON.parse(created.requestJson)).toMatchObject({
      privacy: "private",
      experiment_type: "MIC_MBC_ASSAY",
    });
    expect(hypotheses.count("LinkExperimentToHypothesis")).toBe(0);
    expect(body.status).toBe("open");
    expect(experiments.experiments.get(body.experiment_id)?.status).toBe(ExperimentStatus.OPEN);
  });

  it("a retry replays the first experiment (Idempotent-Replayed)", async () => {
    const id = await savedHypothesis();
    const first = await bodyOf(await call("POST", `/hypotheses/${id}/to-experiment`, {}));
    const again = await call("POST", `/hypotheses/${id}/to-experiment`, {});
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await bodyOf(again)).experiment_id).toBe(first.experiment_id);
    expect(experiments.experiments.size).toBe(1);
  });

  it("refuses a malformed Idempotency-Key and unknown body fields before any service call", async () => {
    const id = await savedHypothesis();
    expect(
      (await call("POST", `/hypotheses/${id}/to-experiment`, {}, undefined, { "idempotency-key": "é" }))
        .status,
    ).toBe(422);
    expect((await call("POST", `/hypotheses/${id}/to-experiment`, { privacy: "open" })).status).toBe(422);
    expect(hypotheses.count("PrepareExperimentFromHypothesis")).toBe(0);
  });
});
