import { Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeExperiments, gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeHypotheses } from "../../../test/support/fake-hypotheses.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { caller } from "../../../test/support/requests.js";

const SOURCE = "198.51.100.172";
const EXPERIMENT_ID = "exp_01jd0c6r5v8q2m7x4k9w3t1b6n";

let hypotheses: FakeHypotheses;
let experiments: FakeExperiments;
let accountId: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  const clock = new FakeClock("2026-12-16T09:00:00.000Z");
  const identity = await FakeIdentity.create(clock);
  hypotheses = new FakeHypotheses(clock);
  experiments = new FakeExperiments(clock);
  const app = await gatewayWithServices(identity, { experiments, hypotheses });
  const account = identity.addAccount({ tier: Tier.PRO });
  accountId = account.account.id;
  call = caller(app, SOURCE, () => account.secret);
});

function knownExperiment(status: string, requesterAccountId = accountId) {
  hypotheses.experimentViews.set(EXPERIMENT_ID, {
    requesterAccountId,
    status,
    title: "IL6 after PX-17",
    statement: "PX-17 raises IL6.",
  });
}

describe("POST /hypotheses/from-experiment", () => {
  it("is one call to the hypotheses service, with the id and title only", async () => {
    knownExperiment("open");
    const response = await call("POST", "/hypotheses/from-experiment", {
      experiment_id: EXPERIMENT_ID,
      title: "Mine",
    });
    expect(response.status).toBe(201);
    const record = await bodyOf(response);
    expect(response.headers.get("location")).toBe(`/hypotheses/${record.id}`);
    expect(record).toMatchObject({ title: "Mine", status: "DRAFT", source_experiment_id: EXPERIMENT_ID });
    expect(hypotheses.last("CreateHypothesisFromExperiment")).toMatchObject({
      experimentId: EXPERIMENT_ID,
      title: "Mine",
    });
    expect(hypotheses.last("CreateHypothesisFromExperiment").experiment).toBeUndefined();
    expect(
      hypotheses.calls.find((c) => c.method === "CreateHypothesisFromExperiment")!.principal,
    ).toMatchObject({
      accountId,
    });
    expect(experiments.calls).toEqual([]);
  });

  it("relays the service's 404 for another account's experiment and 409 for a draft", async () => {
    knownExperiment("open", "usr_someone_else");
    const hidden = await call("POST", "/hypotheses/from-experiment", { experiment_id: EXPERIMENT_ID });
    expect(hidden.status).toBe(404);
    expect((await bodyOf(hidden)).error).toMatchObject({ code: "not_found" });

    knownExperiment("draft");
    const draft = await call("POST", "/hypotheses/from-experiment", { experiment_id: EXPERIMENT_ID });
    expect(draft.status).toBe(409);
    expect((await bodyOf(draft)).error).toMatchObject({
      code: "invalid_state",
      details: { status: "draft" },
    });
  });

  it("422 for a body without experiment_id, before any call", async () => {
    const response = await call("POST", "/hypotheses/from-experiment", { title: "x" });
    expect(response.status).toBe(422);
    expect(hypotheses.count("CreateHypothesisFromExperiment")).toBe(0);
  });
});
