import { Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeCloudLabs } from "../../../test/support/fake-cloudlabs.js";
import { FakeExperiments, gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { caller } from "../../../test/support/requests.js";

const SOURCE = "198.51.100.173";
const EXPERIMENT_ID = "exp_01jd0c6r5v8q2m7x4k9w3t1b6n";
const PATH = `/cloud-labs/experiments/${EXPERIMENT_ID}/translate`;

let cloudlabs: FakeCloudLabs;
let experiments: FakeExperiments;
let accountId: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  const clock = new FakeClock("2026-12-17T09:00:00.000Z");
  const identity = await FakeIdentity.create(clock);
  cloudlabs = new FakeCloudLabs(clock);
  experiments = new FakeExperiments(clock);
  const app = await gatewayWithServices(identity, { experiments, cloudlabs });
  const account = identity.addAccount({ tier: Tier.PRO });
  accountId = account.account.id;
  call = caller(app, SOURCE, () => account.secret);
});

describe("POST /cloud-labs/experiments/{id}/translate", () => {
  it("is one call to the cloudlabs service, with the ids only", async () => {
    cloudlabs.experimentViews.set(EXPERIMENT_ID, { requesterAccountId: accountId, status: "open" });
    const response = await call("POST", PATH, { provider_id: "petri-microbiology-sandbox" });
    expect(response.status).toBe(201);
    const body = await bodyOf(response);
    expect(response.headers.get("location")).toBe(`/cloud-labs/submissions/${body.submission.id}`);
    expect(body).toMatchObject({
      provider_id: "petri-microbiology-sandbox",
      estimated_cost_usd: 120,
      submission: { experiment_id: EXPERIMENT_ID, status: "pending", created_at: "2026-12-17T09:00:00.000Z" },
    });
    expect(cloudlabs.calls).toHaveLength(1);
    expect(cloudlabs.calls[0]!.request).toMatchObject({
      experimentId: EXPERIMENT_ID,
      providerId: "petri-microbiology-sandbox",
    });
    expect(cloudlabs.calls[0]!.request.experiment).toBeUndefined();
    expect(cloudlabs.calls[0]!.principal).toMatchObject({ accountId });
    expect(experiments.calls).toEqual([]);
  });

  it("relays the service's 404 for another account's experiment and 422 for a draft", async () => {
    cloudlabs.experimentViews.set(EXPERIMENT_ID, { requesterAccountId: "usr_someone_else", status: "open" });
    const hidden = await call("POST", PATH, { provider_id: "petri-sll-sandbox" });
    expect(hidden.status).toBe(404);
    expect((await bodyOf(hidden)).error).toMatchObject({ code: "not_found" });

    cloudlabs.experimentViews.set(EXPERIMENT_ID, { requesterAccountId: accountId, status: "draft" });
    const draft = await call("POST", PATH, { provider_id: "petri-sll-sandbox" });
    expect(draft.status).toBe(422);
    expect((await bodyOf(draft)).error.details).toEqual({
      errors: [expect.objectContaining({ field: "experiment_id", code: "invalid_value" })],
    });
  });
});
