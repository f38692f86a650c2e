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
const PROFILE = {
  identity: { type: "academic_core", display_name: "Core Lab", region: "DE", timezone: "Europe/Berlin" },
  capabilities: { experiment_types: ["MIC_MBC_ASSAY"], equipment: ["incubator"] },
  compliance: { max_bsl: "BSL-2", institutional_approval_type: "core_facility_agreement" },
  commercial_terms: {
    pricing: { MIC_MBC_ASSAY: { min_usd: 200, typical_usd: 300, max_usd: 400 } },
    turnaround_days: { MIC_MBC_ASSAY: { standard_days: 10, expedited_days: 5 } },
  },
  availability: { current_capacity: "high", max_concurrent_jobs: 4 },
};

let clock: FakeClock;
let marketplace: FakeMarketplace;
let accountId: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  clock = new FakeClock("2026-03-02T10:00:00.000Z");
  const identity = await FakeIdentity.create(clock);
  marketplace = new FakeMarketplace(clock);
  const app = await gatewayWithServices(identity, { marketplace });
  // Any account may declare a lab: a requester today, an operator once staff verify it.
  const account = identity.addAccount({ tier: Tier.PRO });
  accountId = account.account.id;
  call = caller(app, SOURCE, () => account.secret);
});

describe("POST /operator/profile", () => {
  it("201 with the new operator record, then 200 when the profile is replaced", async () => {
    const created = await call("POST", "/operator/profile", PROFILE);
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe("/operator/profile");
    const record = await bodyOf(created);
    expect(record).toEqual({
      operator_id: expect.stringMatching(/^op_/),
      account_id: accountId,
      lab_name: "Core Lab",
      status: "pending_verification",
      status_reason: null,
      profile: PROFILE,
      verification: null,
      quality: {
        on_time_rate: 1,
        rerun_rate: 0,
        dispute_rate: 0,
        average_rating: null,
        ratings_count: 0,
        total_jobs_completed: 0,
      },
      active_jobs: 0,
      created_at: "2026-03-02T10:00:00.000Z",
      updated_at: "2026-03-02T10:00:00.000Z",
    });
    expect(JSON.parse(marketplace.last("SubmitOperatorProfile").profileJson)).toEqual(PROFILE);
    expect(marketplace.calls[0]?.principal).toMatchObject({ accountId, role: "requester" });

    await clock.advance(60_000);
    const replaced = await call("POST", "/operator/profile", {
      ...PROFILE,
      identity: { ...PROFILE.identity, display_name: "Core Lab II" },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get("location")).toBeNull();
    expect(await bodyOf(replaced)).toMatchObject({
      operator_id: record.operator_id,
      lab_name: "Core Lab II",
      updated_at: "2026-03-02T10:01:00.000Z",
    });
  });

  it("the marketplace validates the profile; its errors name the path", async () => {
    const response = await call("POST", "/operator/profile", { capabilities: {} });
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).error.details.errors).toEqual([
      { field: "identity", path: "identity", code: "missing_required", message: "required" },
    ]);
  });

  it("takes up to 64 KiB (more than the default limit) and refuses more with 413", async () => {
    const withTags = (count: number) => ({
      ...PROFILE,
      capabilities: {
        ...PROFILE.capabilities,
        menu_tags: Array.from({ length: count }, (_, i) => `tag-${i}-${"x".repeat(150)}`),
      },
    });
    const body = JSON.stringify(withTags(60));
    expect(body.length).toBeGreaterThan(4096);
    expect((await call("POST", "/operator/profile", body)).status).toBe(201);

    const tooLarge = JSON.stringify(withTags(450));
    expect(tooLarge.length).toBeGreaterThan(65_536);
    const refused = await call("POST", "/operator/profile", tooLarge);
    expect(refused.status).toBe(413);
    expect((await bodyOf(refused)).error).toMatchObject({
      code: "payload_too_large",
      details: { max_bytes: 65_536 },
    });
    expect(marketplace.count("SubmitOperatorProfile")).toBe(1);
  });

  it("the body must be a JSON object", async () => {
    for (const body of ["[]", "42", "{"]) {
      expect((await call("POST", "/operator/profile", body)).status, body).toBe(422);
    }
    expect(marketplace.calls).toHaveLength(0);
  });
});

describe("GET /operator/profile", () => {
  it("404 before a profile exists, the record after", async () => {
    const none = await call("GET", "/operator/profile");
    expect(none.status).toBe(404);
    expect((await bodyOf(none)).error.code).toBe("not_found");
    await call("POST", "/operator/profile", PROFILE);
    const mine = await call("GET", "/operator/profile");
    expect(mine.status).toBe(200);
    expect(await bodyOf(mine)).toMatchObject({ account_id: accountId, status: "pending_verification" });
  });
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
