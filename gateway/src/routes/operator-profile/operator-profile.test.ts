import { Tier } from "@petri/contracts/identity";
import { OperatorProfileSchema, VerificationRecordSchema } from "@petri/contracts/marketplace";
import { fromRestJson } from "@petri/contracts/rest-json";
import { operatorProfile, verificationRecord } from "@petri/testkit";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { FakeMarketplace } from "../../../test/support/fake-marketplace.js";
import { caller } from "../../../test/support/requests.js";

const SOURCE = "198.51.100.160";

// What a service built before D336 sends (the JSON text only) cannot come from the real
// services: these tests stay on the fake. The rest of the routes' tests run on the real
// services (test/routes/operator-profile.int.test.ts).
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
});

describe("the operator record's profile and verification on the wire (D336)", () => {
  // As a marketplace service stores them: defaults filled in, BSL spelled BSL-1 or BSL-2.
  const stored = {
    ...operatorProfile("Typed Lab"),
    compliance: { ...operatorProfile("Typed Lab").compliance, max_bsl: "BSL-2", certifications: [] },
  };
  const storedProfile = {
    ...stored,
    capabilities: { ...stored.capabilities, cell_lines_available: [], organisms_available: [] },
  };
  const storedVerification = {
    ...verificationRecord(),
    verified_equipment: ["incubator"],
    verified_by: "acc_1",
  };

  it("are written from the typed messages, which win over the JSON text", async () => {
    const operator = marketplace.addOperator(accountId, "active", "Typed Lab");
    operator.profile = fromRestJson(OperatorProfileSchema, storedProfile);
    operator.verification = fromRestJson(VerificationRecordSchema, storedVerification);
    operator.profileJson = JSON.stringify({ stale: true });
    const mine = await bodyOf(await call("GET", "/operator/profile"));
    expect(mine.profile).toEqual(storedProfile);
    expect(mine.verification).toEqual(storedVerification);
  });

  it("are read from the JSON text when a service built before them sent no typed message", async () => {
    const operator = marketplace.addOperator(accountId, "active", "Typed Lab");
    operator.profileJson = JSON.stringify(storedProfile);
    operator.verificationJson = JSON.stringify(storedVerification);
    const mine = await bodyOf(await call("GET", "/operator/profile"));
    expect(mine.profile).toEqual(storedProfile);
    expect(mine.verification).toEqual(storedVerification);
  });
});
