/**
 * Operators end to end through the RPCs: onboarding through verification, rejection and
 * resubmission, suspension and reinstatement, profile edits of an active lab, the staff
 * listing, and OperatorEligibilityChanged recorded once per change in the same transaction.
 * PostgreSQL and PGlite.
 */
import { Code } from "@connectrpc/connect";
import { OperatorProfileSchema, VerificationRecordSchema } from "@petri/contracts/marketplace";
import { toRestJson } from "@petri/contracts/rest-json";
import { describe, expect, it } from "vitest";
import {
  ENGINES,
  activeOperator,
  failure,
  fullVerification,
  labProfile,
  marketplaceOn,
  outboxEvents,
  requester,
  staff,
} from "./support/harness.js";

describe.each(ENGINES)("operators on %s", (engine) => {
  const m = marketplaceOn(engine);
  const admin = staff();

  async function eligibilityEvents(operatorId: string) {
    return (await outboxEvents(m.db, operatorId)).map((e) => ({
      version: e.version,
      status: e.payload.eligibility.status as string,
      previous: e.payload.previousStatus as string,
      types: e.payload.eligibility.experimentTypes as string[],
    }));
  }

  it("onboards through verification, recording one eligibility event per change", async () => {
    const lab = requester("lab");
    const { operator } = await m.as(lab).submitOperatorProfile({ profileJson: labProfile() });
    expect(operator).toMatchObject({
      id: expect.stringMatching(/^op_/),
      accountId: lab.accountId,
      status: "pending_verification",
      labName: "Core Lab",
      verificationJson: "",
      version: 1n,
      activeJobs: 0,
    });
    expect(JSON.parse(operator!.profileJson).compliance.max_bsl).toBe("BSL-2");
    // The typed profile says what the JSON text says (D336); no verification yet.
    expect(toRestJson(OperatorProfileSchema, operator!.profile!)).toEqual(JSON.parse(operator!.profileJson));
    expect(operator!.verification).toBeUndefined();
    expect((await m.as(lab).getMyOperator({})).operator?.id).toBe(operator!.id);

    const { operator: verified } = await m
      .as(admin)
      .verifyOperator({ operatorId: operator!.id, verificationJson: fullVerification() });
    expect(verified).toMatchObject({ status: "active", version: 2n });
    const record = JSON.parse(verified!.verificationJson);
    expect(record.verified_by).toBe(admin.accountId);
    expect(toRestJson(VerificationRecordSchema, verified!.verification!)).toEqual(record);
    expect(record.verified_equipment).toEqual([
      "biosafety cabinet",
      "incubator",
      "plate reader",
      "quantstudio 5",
    ]);

    const events = await outboxEvents(m.db, operator!.id);
    expect(events.map((e) => [e.subject, e.version])).toEqual([
      ["petri.marketplace.operator_eligibility_changed", 1],
      ["petri.marketplace.operator_eligibility_changed", 2],
    ]);
    expect(events[0]!.payload.previousStatus).toBe("onboarding");
    expect(events[0]!.payload.eligibility).toMatchObject({
      status: "pending_verification",
      experimentTypes: [],
      maxBsl: "",
      equipment: [],
    });
    expect(events[1]!.payload.previousStatus).toBe("pending_verification");
    expect(events[1]!.payload.eligibility).toMatchObject({
      operatorId: operator!.id,
      accountId: lab.accountId,
      labName: "Core Lab",
      status: "active",
      experimentTypes: ["QPCR_EXPRESSION", "MIC_MBC_ASSAY"],
      maxBsl: "BSL-2",
      humanSamplesApproved: true,
      animalSamplesApproved: false,
      hazardousChemicalsApproved: true,
      equipmentVerified: true,
      maxConcurrentJobs: 3,
      currentCapacity: "high",
      timezone: "America/New_York",
      vacations: [expect.objectContaining({ start: "2026-12-24", end: "2027-01-02" })],
      version: 2n,
    });
  });

  it("an identical resubmission changes nothing; a new profile of a pending lab keeps it pending", async () => {
    const lab = requester("lab");
    const { operator } = await m.as(lab).submitOperatorProfile({ profileJson: labProfile() });
    const again = await m.as(lab).submitOperatorProfile({ profileJson: labProfile() });
    expect(again.operator?.version).toBe(1n);
    const edited = await m.as(lab).submitOperatorProfile({
      profileJson: labProfile((p) => (p.identity.display_name = "Core Lab East")),
    });
    expect(edited.operator).toMatchObject({
      status: "pending_verification",
      version: 2n,
      labName: "Core Lab East",
    });
    expect(await eligibilityEvents(operator!.id)).toHaveLength(2);
  });

  it("rejection needs a reason; the lab corrects its profile and goes back to verification", async () => {
    const lab = requester("lab");
    const { operator } = await m.as(lab).submitOperatorProfile({ profileJson: labProfile() });
    const id = operator!.id;
    expect(await failure(m.as(admin).rejectOperator({ operatorId: id, reason: "  " }))).toMatchObject({
      code: Code.InvalidArgument,
      violations: [{ field: "reason", code: "missing_required" }],
    });
    const { operator: rejected } = await m
      .as(admin)
      .rejectOperator({ operatorId: id, reason: "supervisor letter missing" });
    expect(rejected).toMatchObject({ status: "rejected", statusReason: "supervisor letter missing" });
    // The same profile again still resubmits: a rejected lab asks for another look.
    const { operator: resubmitted } = await m.as(lab).submitOperatorProfile({ profileJson: labProfile() });
    expect(resubmitted).toMatchObject({ status: "pending_verification", statusReason: "", version: 3n });
    expect((await eligibilityEvents(id)).map((e) => [e.previous, e.status])).toEqual([
      ["onboarding", "pending_verification"],
      ["pending_verification", "rejected"],
      ["rejected", "pending_verification"],
    ]);
  });

  it("refuses invalid transitions with 409 invalid_state naming the status and where it is allowed from", async () => {
    const { operatorId } = await activeOperator(m);
    expect(await failure(m.as(admin).rejectOperator({ operatorId, reason: "late" }))).toMatchObject({
      code: Code.FailedPrecondition,
      reason: "invalid_state",
      details: { status: "active", allowed_from: ["pending_verification"] },
    });
    expect(await failure(m.as(admin).reinstateOperator({ operatorId }))).toMatchObject({
      reason: "invalid_state",
      details: { status: "active", allowed_from: ["suspended"] },
    });
    const { operator: suspended } = await m
      .as(admin)
      .suspendOperator({ operatorId, reason: "repeated disputes" });
    expect(suspended).toMatchObject({ status: "suspended", statusReason: "repeated disputes" });
    expect(
      await failure(m.as(admin).verifyOperator({ operatorId, verificationJson: fullVerification() })),
    ).toMatchObject({
      reason: "invalid_state",
      details: { status: "suspended", allowed_from: ["pending_verification", "active"] },
    });
    const { operator: reinstated } = await m.as(admin).reinstateOperator({ operatorId });
    expect(reinstated).toMatchObject({ status: "active", statusReason: "" });
    expect((await eligibilityEvents(operatorId)).map((e) => e.status)).toEqual([
      "pending_verification",
      "active",
      "suspended",
      "active",
    ]);
  });

  it("verification needs a complete record (422 naming the field) and a valid one", async () => {
    const { operator } = await m.as(requester("lab")).submitOperatorProfile({ profileJson: labProfile() });
    const id = operator!.id;
    const incomplete = await failure(
      m.as(admin).verifyOperator({
        operatorId: id,
        verificationJson: fullVerification((r) => (r.supervisor_approved = false)),
      }),
    );
    expect(incomplete).toMatchObject({
      code: Code.InvalidArgument,
      violations: [{ field: "verification_json" }],
    });
    const invalid = await failure(
      m
        .as(admin)
        .verifyOperator({ operatorId: id, verificationJson: fullVerification((r) => (r.max_bsl = "BSL-3")) }),
    );
    expect(invalid.violations).toEqual([{ field: "max_bsl", code: "invalid_value" }]);
    expect(
      (await failure(m.as(admin).verifyOperator({ operatorId: id, verificationJson: "{" }))).violations,
    ).toEqual([{ field: "verification_json", code: "invalid_value" }]);
    expect((await m.as(admin).getOperator({ operatorId: id })).operator?.status).toBe("pending_verification");
    expect(await eligibilityEvents(id)).toHaveLength(1);
  });

  it("an invalid profile is 422 with field errors and creates nothing", async () => {
    const lab = requester("lab");
    const result = await failure(
      m.as(lab).submitOperatorProfile({
        profileJson: labProfile((p) => {
          p.capabilities.experiment_types = ["QPCR_EXPRESSION", "NOT_A_TYPE"];
          delete p.availability.max_concurrent_jobs;
          p.surprise = true;
        }),
      }),
    );
    expect(result.code).toBe(Code.InvalidArgument);
    expect(result.violations).toEqual(
      expect.arrayContaining([
        { field: "capabilities.experiment_types[1]", code: "invalid_value" },
        { field: "availability.max_concurrent_jobs", code: "missing_required" },
        { field: "surprise", code: "invalid_value" },
      ]),
    );
    expect((await failure(m.as(lab).getMyOperator({}))).code).toBe(Code.NotFound);
  });

  it("an active lab editing its profile stays active; a widened declaration counts only once verified again", async () => {
    const { principal, operatorId } = await activeOperator(m);
    const widened = labProfile((p) => {
      p.capabilities.experiment_types.push("CELL_VIABILITY_IC50");
      p.commercial_terms.pricing.CELL_VIABILITY_IC50 = { min_usd: 300, typical_usd: 500, max_usd: 800 };
      p.commercial_terms.turnaround_days.CELL_VIABILITY_IC50 = { standard_days: 10, expedited_days: 6 };
      p.capabilities.equipment.push("Flow Cytometer");
      p.availability.current_capacity = "low";
    });
    const { operator } = await m.as(principal).submitOperatorProfile({ profileJson: widened });
    expect(operator).toMatchObject({ status: "active", version: 3n });
    let [last] = (await outboxEvents(m.db, operatorId)).slice(-1);
    expect(last!.payload.eligibility).toMatchObject({
      status: "active",
      experimentTypes: ["QPCR_EXPRESSION", "MIC_MBC_ASSAY"],
      currentCapacity: "low",
    });
    expect(last!.payload.eligibility.equipment).not.toContain("flow cytometer");

    await m.as(admin).verifyOperator({
      operatorId,
      verificationJson: fullVerification((r) => r.competencies_verified.push("CELL_VIABILITY_IC50")),
    });
    [last] = (await outboxEvents(m.db, operatorId)).slice(-1);
    expect(last!.payload.previousStatus).toBe("active");
    expect(last!.payload.eligibility.experimentTypes).toEqual([
      "QPCR_EXPRESSION",
      "MIC_MBC_ASSAY",
      "CELL_VIABILITY_IC50",
    ]);
    expect(last!.payload.eligibility.equipment).toContain("flow cytometer");
  });

  it("one operator per account, even when the first submissions race", async () => {
    const lab = requester("lab");
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) =>
        m
          .as(lab)
          .submitOperatorProfile({ profileJson: labProfile((p) => (p.identity.display_name = `Lab ${i}`)) }),
      ),
    );
    const ids = new Set(
      results
        .filter((r) => r.status === "fulfilled")
        .map((r) => (r as PromiseFulfilledResult<any>).value.operator.id),
    );
    expect(ids.size).toBe(1);
    const rows = await m.db
      .selectFrom("operators")
      .select("id")
      .where("account_id", "=", lab.accountId)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("staff-only procedures are 403 for others, unknown operators 404", async () => {
    const someone = requester();
    // Each call starts only when the previous one was checked, so no rejection waits unobserved.
    const client = m.as(someone);
    for (const call of [
      () => client.listOperators({}),
      () => client.getOperator({ operatorId: "op_x" }),
      () => client.verifyOperator({ operatorId: "op_x", verificationJson: fullVerification() }),
      () => client.rejectOperator({ operatorId: "op_x", reason: "no" }),
      () => client.suspendOperator({ operatorId: "op_x", reason: "no" }),
      () => client.reinstateOperator({ operatorId: "op_x" }),
      () => client.checkLedger({}),
    ]) {
      expect((await failure(call())).code).toBe(Code.PermissionDenied);
    }
    expect(
      (await failure(m.as(admin).getOperator({ operatorId: "op_00000000000000000000000000" }))).code,
    ).toBe(Code.NotFound);
    expect((await failure(m.as().getMyOperator({}))).code).toBe(Code.Unauthenticated);
  });

  it("staff list operators newest first, by status, in bounded keyset pages", async () => {
    const suspendedIds: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      await m.clock.advance(1_000);
      const { operatorId } = await activeOperator(m);
      await m.as(admin).suspendOperator({ operatorId, reason: "audit" });
      suspendedIds.push(operatorId);
    }
    const first = await m.as(admin).listOperators({ status: "suspended", limit: 2, includeTotal: true });
    expect(first.total).toBeGreaterThanOrEqual(3n);
    expect((await m.as(admin).listOperators({ status: "suspended", limit: 2 })).hasTotal).toBe(false);
    expect(first.hasMore).toBe(true);
    const seen = first.operators.map((o) => o.id);
    let cursor = first.nextCursor;
    while (cursor !== "") {
      const page = await m.as(admin).listOperators({ status: "suspended", limit: 2, cursor });
      seen.push(...page.operators.map((o) => o.id));
      cursor = page.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(Number(first.total));
    expect(seen.slice(0, 3)).toEqual([...suspendedIds].reverse());

    expect((await failure(m.as(admin).listOperators({ limit: 101 }))).violations).toEqual([
      { field: "limit", code: "invalid_value" },
    ]);
    expect((await failure(m.as(admin).listOperators({ status: "verified" }))).violations).toEqual([
      { field: "status", code: "invalid_value" },
    ]);
    expect((await failure(m.as(admin).listOperators({ cursor: "bogus" }))).violations).toEqual([
      { field: "cursor", code: "invalid_value" },
    ]);
    const all = await m.as(admin).listOperators({});
    expect(all.operators.length).toBeLessThanOrEqual(20);
  });
});
