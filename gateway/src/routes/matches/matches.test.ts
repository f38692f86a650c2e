import { create } from "@bufbuild/protobuf";
import { Tier } from "@petri/contracts/identity";
import { LabMatchSchema, MatchComponentsSchema } from "@petri/contracts/marketplace";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { FakeMarketplace } from "../../../test/support/fake-marketplace.js";
import { caller } from "../../../test/support/requests.js";

const SOURCE = "198.51.100.140";

let marketplace: FakeMarketplace;
let accountId: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  const clock = new FakeClock("2026-03-02T10:00:00.000Z");
  const identity = await FakeIdentity.create(clock);
  marketplace = new FakeMarketplace(clock);
  const app = await gatewayWithServices(identity, { marketplace });
  const account = identity.addAccount({ tier: Tier.PRO });
  accountId = account.account.id;
  call = caller(app, SOURCE, () => account.secret);
  const components = create(MatchComponentsSchema, {
    capability: 1,
    turnaround: 0.5,
    cost: 0.8,
    quality: 0.7,
  });
  marketplace.rankings.set("exp_00000000000000000000000001", {
    availability: "low",
    labs: [
      create(LabMatchSchema, {
        operatorId: "op_1",
        labName: "Lab One",
        score: 83.25,
        components,
        eligible: true,
      }),
      create(LabMatchSchema, {
        operatorId: "op_2",
        labName: "Lab Two",
        score: 41,
        components,
        eligible: false,
        failedFilters: ["bsl", "equipment"],
      }),
    ],
  });
});

describe("GET /experiments/{id}/matches", () => {
  it("ranks the labs; failed_filters only for an ineligible lab", async () => {
    const response = await call("GET", "/experiments/exp_00000000000000000000000001/matches");
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      labs: [
        {
          operator_id: "op_1",
          lab_name: "Lab One",
          score: 83.25,
          components: { capability: 1, turnaround: 0.5, cost: 0.8, quality: 0.7 },
          eligible: true,
        },
        {
          operator_id: "op_2",
          lab_name: "Lab Two",
          score: 41,
          components: { capability: 1, turnaround: 0.5, cost: 0.8, quality: 0.7 },
          eligible: false,
          failed_filters: ["bsl", "equipment"],
        },
      ],
      operator_availability: "low",
    });
    expect(marketplace.last("RankLabs")).toMatchObject({
      experimentId: "exp_00000000000000000000000001",
      limit: 20,
    });
    expect(marketplace.calls[0]?.principal?.accountId).toBe(accountId);
  });

  it("passes ?limit on, bounded 1-100; an unknown experiment is 404", async () => {
    const one = await bodyOf(
      await call("GET", "/experiments/exp_00000000000000000000000001/matches?limit=1"),
    );
    expect(one.labs).toHaveLength(1);
    expect(marketplace.last("RankLabs").limit).toBe(1);
    for (const query of ["limit=0", "limit=101", "limit=-1"]) {
      expect(
        (await call("GET", `/experiments/exp_00000000000000000000000001/matches?${query}`)).status,
        query,
      ).toBe(422);
    }
    const missing = await call("GET", "/experiments/exp_zzzzzzzzzzzzzzzzzzzzzzzzzz/matches");
    expect(missing.status).toBe(404);
    expect(marketplace.count("RankLabs")).toBe(2);
  });
});
