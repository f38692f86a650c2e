import { eligibilityFailures } from "@petri/contracts";
import { describe, expect, it } from "vitest";
import { eligibilityJobOf, eligibilityOf } from "./eligibility.js";
import { isQualifiedFor } from "./qualification.js";
import { NOW, job, operator, validProfile, verification } from "../../../test/support/operators.js";
import { withVerifiedEquipment } from "./verification.js";

describe("eligibilityOf", () => {
  it("flattens a verified operator into the snapshot the shared rule reads", () => {
    expect(eligibilityOf(operator())).toEqual({
      status: "active",
      experimentTypes: ["QPCR_EXPRESSION", "MIC_MBC_ASSAY"],
      maxBsl: "BSL-2",
      humanSamplesApproved: true,
      animalSamplesApproved: false,
      hazardousChemicalsApproved: true,
      equipment: ["biosafety cabinet", "incubator", "plate reader", "quantstudio 5"],
      equipmentVerified: true,
      maxConcurrentJobs: 3,
      currentCapacity: "high",
      timezone: "America/New_York",
      vacations: [{ start: "2026-12-24", end: "2027-01-02" }],
    });
  });

  it("keeps only what is declared AND verified", () => {
    const profile = validProfile();
    profile.compliance.max_bsl = "BSL-1";
    profile.compliance.human_samples_approved = false;
    const snapshot = eligibilityOf(
      operator({
        profile,
        verification: verification({
          competencies_verified: ["MIC_MBC_ASSAY", "CELL_VIABILITY_IC50"],
          max_bsl: "BSL-2",
          material_approvals: { human_samples: true, animal_samples: true, hazardous_chemicals: false },
        }),
      }),
    );
    expect(snapshot).toMatchObject({
      // CELL_VIABILITY_IC50 is verified but not declared; QPCR declared but not verified.
      experimentTypes: ["MIC_MBC_ASSAY"],
      // The lower of declared BSL-1 and verified BSL-2.
      maxBsl: "BSL-1",
      humanSamplesApproved: false,
      animalSamplesApproved: false,
      hazardousChemicalsApproved: false,
    });
  });

  it("is empty of capabilities before verification", () => {
    expect(eligibilityOf(operator({ status: "pending_verification", verification: null }))).toMatchObject({
      status: "pending_verification",
      experimentTypes: [],
      maxBsl: "",
      humanSamplesApproved: false,
      equipment: [],
      equipmentVerified: false,
    });
  });

  it("lists no equipment unless staff verified it", () => {
    const snapshot = eligibilityOf(operator({ verification: verification({ equipment_verified: false }) }));
    expect(snapshot.equipment).toEqual([]);
    expect(snapshot.equipmentVerified).toBe(false);
  });

  it("counts equipment added after verification only once it is verified", () => {
    const profile = validProfile();
    const verified = withVerifiedEquipment(verification(), profile);
    expect(verified.verified_equipment).toEqual([
      "biosafety cabinet",
      "incubator",
      "plate reader",
      "quantstudio 5",
    ]);
    profile.capabilities.equipment.push("Flow Cytometer");
    const later = operator({ profile, verification: verified });
    expect(eligibilityOf(later).equipment).not.toContain("flow cytometer");
    expect(isQualifiedFor(later, job({ equipment_required: ["Flow cytometer"] }), NOW).qualified).toBe(false);

    // Removing a declared item narrows at once.
    profile.capabilities.equipment = profile.capabilities.equipment.filter((name) => name !== "Incubator");
    expect(eligibilityOf(operator({ profile, verification: verified })).equipment).not.toContain("incubator");
  });

  it("staff may confirm only part of the declared equipment", () => {
    const record = withVerifiedEquipment(
      verification({ verified_equipment: ["  PLATE reader ", "Centrifuge"] }),
      validProfile(),
    );
    expect(record.verified_equipment).toEqual(["centrifuge", "plate reader"]);
    // Centrifuge is confirmed but not declared: it does not count.
    expect(eligibilityOf(operator({ verification: record })).equipment).toEqual(["plate reader"]);
  });

  it("isQualifiedFor is the shared rule applied to the snapshot", () => {
    const cases = [
      operator(),
      operator({ status: "suspended" }),
      operator({ active_jobs: 3 }),
      operator({ verification: verification({ max_bsl: "BSL-1", equipment_verified: false }) }),
    ];
    const jobs = [
      job(),
      job({ bsl: "BSL-2", equipment_required: ["Plate reader"] }),
      job({ experiment_type: "CUSTOM", needs_animal_samples_approval: true }),
    ];
    for (const o of cases) {
      for (const j of jobs) {
        expect(isQualifiedFor(o, j, NOW).failed_filters).toEqual(
          eligibilityFailures(eligibilityOf(o), eligibilityJobOf(j), o.active_jobs, NOW),
        );
      }
    }
  });
});
