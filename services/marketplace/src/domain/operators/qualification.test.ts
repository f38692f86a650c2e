import { describe, expect, it } from "vitest";

import { isQualifiedFor, localDate, type HardFilter } from "./qualification.js";
import { job, NOW, operator, validProfile, verification } from "../../../test/support/operators.js";

function failedOf(...args: Parameters<typeof isQualifiedFor>): HardFilter[] {
  return isQualifiedFor(...args).failed_filters.map((f) => f.filter);
}

describe("isQualifiedFor hard filters", () => {
  it("qualifies a verified, available, equipped operator", () => {
    expect(isQualifiedFor(operator(), job(), NOW)).toEqual({ qualified: true, failed_filters: [] });
  });

  describe("operator_status", () => {
    it.each(["onboarding", "pending_verification", "rejected", "paused", "suspended"] as const)(
      "fails when status is %s",
      (status) => expect(failedOf(operator({ status }), job(), NOW)).toEqual(["operator_status"]),
    );
    it("fails without a verification record", () => {
      expect(failedOf(operator({ verification: null }), job(), NOW)).toContain("operator_status");
    });
  });

  describe("competency", () => {
    it("fails when the type is not declared", () => {
      const r = isQualifiedFor(operator(), job({ experiment_type: "CELL_VIABILITY_IC50" }), NOW);
      expect(r.failed_filters).toEqual([
        { filter: "competency", reason: "no verified competency for CELL_VIABILITY_IC50" },
      ]);
    });
    it("fails when declared but not verified", () => {
      const o = operator({ verification: verification({ competencies_verified: ["MIC_MBC_ASSAY"] }) });
      expect(failedOf(o, job(), NOW)).toEqual(["competency"]);
      expect(failedOf(o, job({ experiment_type: "MIC_MBC_ASSAY" }), NOW)).toEqual([]);
    });
  });

  describe("bsl", () => {
    it("passes BSL-1 and BSL-2 for a BSL-2 lab", () => {
      expect(failedOf(operator(), job({ bsl: "BSL-1" }), NOW)).toEqual([]);
      expect(failedOf(operator(), job({ bsl: "BSL-2" }), NOW)).toEqual([]);
    });
    it("fails BSL-2 when staff verified only BSL-1", () => {
      const o = operator({ verification: verification({ max_bsl: "BSL-1" }) });
      expect(isQualifiedFor(o, job({ bsl: "BSL-2" }), NOW).failed_filters).toEqual([
        { filter: "bsl", reason: "job requires BSL-2, above the operator's maximum BSL-1" },
      ]);
      expect(failedOf(o, job({ bsl: "BSL-1" }), NOW)).toEqual([]);
    });
    it("fails BSL-2 when the lab declared only BSL-1 (verified never exceeds declared)", () => {
      const profile = validProfile();
      profile.compliance.max_bsl = "BSL-1";
      expect(failedOf(operator({ profile }), job({ bsl: "BSL-2" }), NOW)).toEqual(["bsl"]);
    });
  });

  describe("material approvals", () => {
    it("human samples: needs declared and verified approval", () => {
      const j = job({ needs_human_samples_approval: true });
      expect(failedOf(operator(), j, NOW)).toEqual([]);
      const unverified = operator({
        verification: verification({
          material_approvals: { human_samples: false, animal_samples: false, hazardous_chemicals: true },
        }),
      });
      expect(failedOf(unverified, j, NOW)).toEqual(["human_samples"]);
      const profile = validProfile();
      profile.compliance.human_samples_approved = false;
      expect(failedOf(operator({ profile }), j, NOW)).toEqual(["human_samples"]);
    });
    it("animal samples: fails when not approved, ignored when not needed", () => {
      expect(failedOf(operator(), job({ needs_animal_samples_approval: true }), NOW)).toEqual([
        "animal_samples",
      ]);
      expect(failedOf(operator(), job({ needs_animal_samples_approval: false }), NOW)).toEqual([]);
      const profile = validProfile();
      profile.compliance.animal_samples_approved = true;
      const o = operator({
        profile,
        verification: verification({
          material_approvals: { human_samples: true, animal_samples: true, hazardous_chemicals: true },
        }),
      });
      expect(failedOf(o, job({ needs_animal_samples_approval: true }), NOW)).toEqual([]);
    });
    it("hazardous chemicals: passes when approved, fails when verification lacks it", () => {
      const j = job({ needs_hazardous_chemicals_approval: true });
      expect(failedOf(operator(), j, NOW)).toEqual([]);
      const o = operator({
        verification: verification({
          material_approvals: { human_samples: true, animal_samples: false, hazardous_chemicals: false },
        }),
      });
      expect(failedOf(o, j, NOW)).toEqual(["hazardous_chemicals"]);
    });
  });

  describe("equipment", () => {
    it("matches equipment and instrument names case-insensitively and trimmed", () => {
      const j = job({ equipment_required: ["  biosafety   cabinet ", "PLATE READER", "quantstudio 5"] });
      expect(failedOf(operator(), j, NOW)).toEqual([]);
    });
    it("names the missing equipment", () => {
      const r = isQualifiedFor(
        operator(),
        job({ equipment_required: ["Plate reader", "Flow cytometer"] }),
        NOW,
      );
      expect(r.failed_filters).toEqual([
        { filter: "equipment", reason: "missing required equipment: Flow cytometer" },
      ]);
    });
    it("fails when staff have not verified the equipment", () => {
      const o = operator({ verification: verification({ equipment_verified: false }) });
      expect(failedOf(o, job({ equipment_required: ["Incubator"] }), NOW)).toEqual(["equipment"]);
      expect(failedOf(o, job({ equipment_required: [] }), NOW)).toEqual([]);
    });
  });

  describe("capacity", () => {
    it("fails when active jobs reach max_concurrent_jobs", () => {
      expect(failedOf(operator({ active_jobs: 2 }), job(), NOW)).toEqual([]);
      expect(failedOf(operator({ active_jobs: 3 }), job(), NOW)).toEqual(["capacity"]);
    });
    it("fails when current_capacity is none", () => {
      const profile = validProfile();
      profile.availability.current_capacity = "none";
      expect(failedOf(operator({ profile }), job(), NOW)).toEqual(["capacity"]);
      profile.availability.current_capacity = "low";
      expect(failedOf(operator({ profile }), job(), NOW)).toEqual([]);
    });
  });

  describe("vacation", () => {
    it("fails inside the vacation (inclusive bounds) and passes outside", () => {
      const at = (iso: string) => failedOf(operator(), job(), new Date(iso));
      expect(at("2026-12-23T16:00:00Z")).toEqual([]);
      expect(at("2026-12-24T16:00:00Z")).toEqual(["vacation"]);
      expect(at("2027-01-02T16:00:00Z")).toEqual(["vacation"]);
      expect(at("2027-01-03T16:00:00Z")).toEqual([]);
    });
    it("uses the operator's timezone for the calendar date", () => {
      // 03:00 UTC on Dec 24 is still Dec 23 in New York.
      expect(localDate(new Date("2026-12-24T03:00:00Z"), "America/New_York")).toBe("2026-12-23");
      expect(failedOf(operator(), job(), new Date("2026-12-24T03:00:00Z"))).toEqual([]);
      expect(failedOf(operator(), job(), new Date("2026-12-24T06:00:00Z"))).toEqual(["vacation"]);
    });
  });

  it("reports every failed filter at once", () => {
    const o = operator({ status: "paused", active_jobs: 5 });
    const j = job({ bsl: "BSL-2", needs_animal_samples_approval: true, equipment_required: ["Centrifuge"] });
    const o2 = { ...o, verification: verification({ max_bsl: "BSL-1" }) };
    expect(failedOf(o2, j, new Date("2026-12-25T12:00:00Z"))).toEqual([
      "operator_status",
      "bsl",
      "animal_samples",
      "equipment",
      "capacity",
      "vacation",
    ]);
  });
});
