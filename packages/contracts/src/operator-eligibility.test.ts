import { describe, expect, it } from "vitest";
import {
  type EligibilityFilter,
  type EligibilityJob,
  type EligibilitySnapshot,
  eligibilityFailures,
  isOnVacation,
  localDate,
  normalizeEquipmentName,
} from "./operator-eligibility.js";

/** An active BSL-2 lab with every approval and verified equipment, in New York. */
function snapshot(overrides: Partial<EligibilitySnapshot> = {}): EligibilitySnapshot {
  return {
    status: "active",
    experimentTypes: ["QPCR_EXPRESSION", "MIC_MBC_ASSAY"],
    maxBsl: "BSL-2",
    humanSamplesApproved: true,
    animalSamplesApproved: true,
    hazardousChemicalsApproved: true,
    equipment: ["biosafety cabinet", "plate reader", "quantstudio 5"],
    equipmentVerified: true,
    maxConcurrentJobs: 3,
    currentCapacity: "high",
    timezone: "America/New_York",
    vacations: [{ start: "2026-12-24", end: "2027-01-02" }],
    ...overrides,
  };
}

function job(overrides: Partial<EligibilityJob> = {}): EligibilityJob {
  return {
    experimentType: "QPCR_EXPRESSION",
    bslLevel: "BSL-1",
    needsHumanSamplesApproval: false,
    needsAnimalSamplesApproval: false,
    needsHazardousChemicalsApproval: false,
    equipmentRequired: [],
    ...overrides,
  };
}

const NOW = new Date("2026-11-21T12:00:00Z");

function failed(
  s: EligibilitySnapshot,
  j: EligibilityJob,
  activeJobs = 0,
  now: Date = NOW,
): EligibilityFilter[] {
  return eligibilityFailures(s, j, activeJobs, now).map((f) => f.filter);
}

describe("eligibilityFailures", () => {
  it("passes an active, verified, available, equipped lab", () => {
    expect(eligibilityFailures(snapshot(), job(), 0, NOW)).toEqual([]);
  });

  describe("each filter failing alone", () => {
    const cases: [EligibilityFilter, EligibilitySnapshot, EligibilityJob, number, Date][] = [
      ["operator_status", snapshot({ status: "suspended" }), job(), 0, NOW],
      ["competency", snapshot(), job({ experimentType: "CELL_VIABILITY_IC50" }), 0, NOW],
      ["bsl", snapshot({ maxBsl: "BSL-1" }), job({ bslLevel: "BSL-2" }), 0, NOW],
      [
        "human_samples",
        snapshot({ humanSamplesApproved: false }),
        job({ needsHumanSamplesApproval: true }),
        0,
        NOW,
      ],
      [
        "animal_samples",
        snapshot({ animalSamplesApproved: false }),
        job({ needsAnimalSamplesApproval: true }),
        0,
        NOW,
      ],
      [
        "hazardous_chemicals",
        snapshot({ hazardousChemicalsApproved: false }),
        job({ needsHazardousChemicalsApproval: true }),
        0,
        NOW,
      ],
      ["equipment", snapshot(), job({ equipmentRequired: ["Flow cytometer"] }), 0, NOW],
      ["capacity", snapshot(), job(), 3, NOW],
      ["vacation", snapshot(), job(), 0, new Date("2026-12-25T12:00:00Z")],
    ];
    it.each(cases)("%s", (filter, s, j, activeJobs, now) => {
      const failures = eligibilityFailures(s, j, activeJobs, now);
      expect(failures.map((f) => f.filter)).toEqual([filter]);
      expect(failures[0]?.reason.length).toBeGreaterThan(10);
    });
  });

  it("reports every failed filter together, in a stable order", () => {
    const s = snapshot({
      status: "paused",
      experimentTypes: [],
      maxBsl: "BSL-1",
      humanSamplesApproved: false,
      animalSamplesApproved: false,
      hazardousChemicalsApproved: false,
      equipment: [],
      equipmentVerified: false,
      currentCapacity: "none",
    });
    const j = job({
      bslLevel: "BSL-2",
      needsHumanSamplesApproval: true,
      needsAnimalSamplesApproval: true,
      needsHazardousChemicalsApproval: true,
      equipmentRequired: ["Centrifuge"],
    });
    expect(failed(s, j, 5, new Date("2026-12-30T12:00:00Z"))).toEqual([
      "operator_status",
      "competency",
      "bsl",
      "human_samples",
      "animal_samples",
      "hazardous_chemicals",
      "equipment",
      "capacity",
      "vacation",
    ]);
  });

  it.each(["onboarding", "pending_verification", "rejected", "paused", "suspended", ""])(
    "only active operators pass the status filter (%j fails)",
    (status) => {
      const [failure] = eligibilityFailures(snapshot({ status }), job(), 0, NOW);
      expect(failure?.filter).toBe("operator_status");
      expect(failure?.reason).toContain(status || "unknown");
    },
  );

  describe("bsl", () => {
    it("a BSL-2 lab takes BSL-1 and BSL-2 jobs; a BSL-1 lab only BSL-1", () => {
      expect(failed(snapshot(), job({ bslLevel: "BSL-1" }))).toEqual([]);
      expect(failed(snapshot(), job({ bslLevel: "BSL-2" }))).toEqual([]);
      expect(failed(snapshot({ maxBsl: "BSL-1" }), job({ bslLevel: "BSL-1" }))).toEqual([]);
    });
    it("fails closed on an unverified lab level", () => {
      const [failure] = eligibilityFailures(snapshot({ maxBsl: "" }), job(), 0, NOW);
      expect(failure).toEqual({
        filter: "bsl",
        reason: "job requires BSL-1 and the operator's biosafety level is not verified",
      });
    });
    it("fails closed on unsupported levels on either side", () => {
      expect(failed(snapshot({ maxBsl: "BSL-3" }), job({ bslLevel: "BSL-1" }))).toEqual(["bsl"]);
      expect(failed(snapshot(), job({ bslLevel: "BSL-3" }))).toEqual(["bsl"]);
      expect(failed(snapshot(), job({ bslLevel: "" }))).toEqual(["bsl"]);
      expect(failed(snapshot({ maxBsl: "BSL-3" }), job({ bslLevel: "BSL-3" }))).toEqual(["bsl"]);
    });
  });

  describe("material approvals", () => {
    it("are only checked when the job needs them", () => {
      const unapproved = snapshot({
        humanSamplesApproved: false,
        animalSamplesApproved: false,
        hazardousChemicalsApproved: false,
      });
      expect(failed(unapproved, job())).toEqual([]);
    });
  });

  describe("equipment", () => {
    it("matches names trimmed, whitespace-collapsed and case-insensitively", () => {
      const j = job({ equipmentRequired: ["  Biosafety   CABINET ", "Plate Reader", "QuantStudio 5"] });
      expect(
        failed(snapshot({ equipment: ["Biosafety Cabinet", "PLATE  reader", "quantstudio 5"] }), j),
      ).toEqual([]);
    });
    it("names every missing item", () => {
      const [failure] = eligibilityFailures(
        snapshot(),
        job({ equipmentRequired: ["Plate reader", "Flow cytometer", "Centrifuge"] }),
        0,
        NOW,
      );
      expect(failure).toEqual({
        filter: "equipment",
        reason: "missing required equipment: Flow cytometer, Centrifuge",
      });
    });
    it("fails when the names are present but not verified, passes when nothing is required", () => {
      const unverified = snapshot({ equipmentVerified: false });
      const [failure] = eligibilityFailures(unverified, job({ equipmentRequired: ["Plate reader"] }), 0, NOW);
      expect(failure).toEqual({ filter: "equipment", reason: "the operator's equipment is not verified" });
      expect(failed(unverified, job({ equipmentRequired: [] }))).toEqual([]);
    });
  });

  describe("capacity", () => {
    it("fails at max_concurrent_jobs and when capacity is none", () => {
      expect(failed(snapshot(), job(), 2)).toEqual([]);
      expect(failed(snapshot(), job(), 3)).toEqual(["capacity"]);
      expect(failed(snapshot({ currentCapacity: "none" }), job(), 0)).toEqual(["capacity"]);
      expect(failed(snapshot({ currentCapacity: "low" }), job(), 0)).toEqual([]);
    });
  });

  describe("vacation in the lab's time zone (America/New_York, UTC-5 in winter)", () => {
    const at = (iso: string) => failed(snapshot(), job(), 0, new Date(iso));
    it("starts at local midnight of the first day, not UTC midnight", () => {
      // 2026-12-24 03:00 UTC is still 2026-12-23 22:00 in New York.
      expect(at("2026-12-24T03:00:00Z")).toEqual([]);
      expect(at("2026-12-24T04:59:59Z")).toEqual([]);
      expect(at("2026-12-24T05:00:00Z")).toEqual(["vacation"]);
    });
    it("includes the whole last local day and ends at the following local midnight", () => {
      expect(at("2027-01-03T04:59:59Z")).toEqual(["vacation"]); // 2027-01-02 23:59:59 local
      expect(at("2027-01-03T05:00:00Z")).toEqual([]); // 2027-01-03 00:00 local
    });
    it("names the local date in the reason", () => {
      const [failure] = eligibilityFailures(snapshot(), job(), 0, new Date("2027-01-03T02:00:00Z"));
      expect(failure).toEqual({ filter: "vacation", reason: "operator is on vacation on 2027-01-02" });
    });
    it("a zone east of UTC moves the edges the other way", () => {
      const tokyo = snapshot({ timezone: "Asia/Tokyo" }); // UTC+9
      expect(failed(tokyo, job(), 0, new Date("2026-12-23T14:59:59Z"))).toEqual([]);
      expect(failed(tokyo, job(), 0, new Date("2026-12-23T15:00:00Z"))).toEqual(["vacation"]);
      expect(failed(tokyo, job(), 0, new Date("2027-01-02T15:00:00Z"))).toEqual([]);
    });
  });
});

describe("helpers", () => {
  it("localDate falls back to UTC for an empty or unknown zone", () => {
    const instant = new Date("2026-12-24T03:00:00Z");
    expect(localDate(instant, "America/New_York")).toBe("2026-12-23");
    expect(localDate(instant, "")).toBe("2026-12-24");
    expect(localDate(instant, "Not/AZone")).toBe("2026-12-24");
  });

  it("isOnVacation compares inclusive calendar dates", () => {
    const vacations = [{ start: "2026-05-01", end: "2026-05-01" }];
    expect(isOnVacation({ timezone: "UTC", vacations }, new Date("2026-05-01T00:00:00Z"))).toBe(true);
    expect(isOnVacation({ timezone: "UTC", vacations }, new Date("2026-05-01T23:59:59Z"))).toBe(true);
    expect(isOnVacation({ timezone: "UTC", vacations }, new Date("2026-05-02T00:00:00Z"))).toBe(false);
    expect(isOnVacation({ timezone: "UTC", vacations: [] }, NOW)).toBe(false);
  });

  it("normalizeEquipmentName trims, collapses whitespace and lower-cases", () => {
    expect(normalizeEquipmentName("  Plate \t  Reader\n")).toBe("plate reader");
  });
});
