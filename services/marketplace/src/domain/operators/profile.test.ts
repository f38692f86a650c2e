import { describe, expect, it } from "vitest";

import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { validateOperatorProfile } from "./profile.js";
import { profileInput } from "../../../test/support/operators.js";
import { validateVerificationRecord } from "./verification.js";

function errorsOf(input: unknown) {
  const r = validateOperatorProfile(input);
  if (r.ok) throw new Error("expected rejection");
  return r.errors;
}

function mutate(fn: (p: Record<string, any>) => void): Record<string, unknown> {
  const p = profileInput() as Record<string, any>;
  fn(p);
  return p;
}

describe("operator profile schema", () => {
  it("accepts a complete profile, normalises BSL and fills defaults", () => {
    const r = validateOperatorProfile(profileInput());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.compliance.max_bsl).toBe("BSL-2");
    expect(r.value.capabilities.cell_lines_available).toEqual([]);
    expect(r.value.availability.vacations).toHaveLength(1);
  });

  it.each([
    ["BSL1", "BSL-1"],
    ["bsl-2", "BSL-2"],
    ["BSL 1", "BSL-1"],
    [2, "BSL-2"],
  ])("accepts max_bsl spelling %j as %s", (spelling, stored) => {
    const r = validateOperatorProfile(mutate((p) => (p.compliance.max_bsl = spelling)));
    expect(r.ok && r.value.compliance.max_bsl).toBe(stored);
  });

  it("rejects BSL-3 at compliance.max_bsl", () => {
    expect(errorsOf(mutate((p) => (p.compliance.max_bsl = "BSL-3")))).toEqual([
      expect.objectContaining({ path: "compliance.max_bsl", code: "invalid_value" }),
    ]);
  });

  it("reports a missing section and a missing nested field as missing_required with paths", () => {
    const errors = errorsOf(
      mutate((p) => {
        delete p.availability;
        delete p.identity.region;
      }),
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "availability", code: "missing_required" }),
        expect.objectContaining({ path: "identity.region", code: "missing_required" }),
      ]),
    );
    expect(errors.find((e) => e.path === "identity.region")?.message).toBe("identity.region is required");
  });

  it("treats null as absent", () => {
    expect(errorsOf(mutate((p) => (p.identity.timezone = null)))).toEqual([
      expect.objectContaining({ path: "identity.timezone", code: "missing_required" }),
    ]);
  });

  it("rejects unknown fields at their own path (strict)", () => {
    expect(
      errorsOf(
        mutate((p) => {
          p.extra = 1;
          p.capabilities.instruments[0].colour = "blue";
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "extra", code: "invalid_value" }),
        expect.objectContaining({ path: "capabilities.instruments[0].colour", code: "invalid_value" }),
      ]),
    );
  });

  it.each([
    ["identity.type", (p: any) => (p.identity.type = "garage")],
    ["identity.region", (p: any) => (p.identity.region = "usa")],
    ["identity.timezone", (p: any) => (p.identity.timezone = "Mars/Olympus")],
    ["capabilities.experiment_types", (p: any) => (p.capabilities.experiment_types = [])],
    ["capabilities.experiment_types[1]", (p: any) => (p.capabilities.experiment_types[1] = "WESTERN_BLOT")],
    [
      "capabilities.instruments[0].last_calibration",
      (p: any) => (p.capabilities.instruments[0].last_calibration = "June"),
    ],
    ["compliance.human_samples_approved", (p: any) => (p.compliance.human_samples_approved = "yes")],
    [
      "commercial_terms.pricing.QPCR_EXPRESSION.max_usd",
      (p: any) => (p.commercial_terms.pricing.QPCR_EXPRESSION.max_usd = 500),
    ],
    [
      "commercial_terms.pricing.QPCR_EXPRESSION.min_usd",
      (p: any) => (p.commercial_terms.pricing.QPCR_EXPRESSION.min_usd = -1),
    ],
    [
      "commercial_terms.turnaround_days.MIC_MBC_ASSAY.expedited_days",
      (p: any) => (p.commercial_terms.turnaround_days.MIC_MBC_ASSAY.expedited_days = 9),
    ],
    [
      "commercial_terms.pricing.CUSTOM",
      (p: any) => (p.commercial_terms.pricing.CUSTOM = { min_usd: 1, typical_usd: 2, max_usd: 3 }),
    ],
    [
      "commercial_terms.pricing.NOT_A_TYPE",
      (p: any) => (p.commercial_terms.pricing.NOT_A_TYPE = { min_usd: 1, typical_usd: 2, max_usd: 3 }),
    ],
    ["availability.max_concurrent_jobs", (p: any) => (p.availability.max_concurrent_jobs = 0)],
    ["availability.current_capacity", (p: any) => (p.availability.current_capacity = "lots")],
    ["availability.vacations[0].end", (p: any) => (p.availability.vacations[0].end = "2026-12-01")],
  ])("rejects a bad value at %s as invalid_value", (path, fn) => {
    const errors = errorsOf(mutate(fn));
    expect(errors).toContainEqual(expect.objectContaining({ path, code: "invalid_value" }));
    for (const e of errors) expect(e.message.startsWith(path)).toBe(true);
  });

  it("requires commercial terms for every declared type", () => {
    expect(errorsOf(mutate((p) => delete p.commercial_terms.turnaround_days.MIC_MBC_ASSAY))).toEqual([
      expect.objectContaining({
        path: "commercial_terms.turnaround_days.MIC_MBC_ASSAY",
        code: "missing_required",
      }),
    ]);
  });

  it("keeps the experiment type list in step with the experiments service", () => {
    expect(EXPERIMENT_TYPES).toEqual([
      "SANGER_PLASMID_VERIFICATION",
      "QPCR_EXPRESSION",
      "CELL_VIABILITY_IC50",
      "ENZYME_INHIBITION_IC50",
      "MICROBIAL_GROWTH_MATRIX",
      "MIC_MBC_ASSAY",
      "ZONE_OF_INHIBITION",
      "CUSTOM",
    ]);
  });
});

describe("verification record schema", () => {
  const record = {
    identity_verified: true,
    institution_verified: true,
    supervisor_approved: false,
    competencies_verified: ["QPCR_EXPRESSION"],
    equipment_verified: true,
    max_bsl: "BSL1",
    material_approvals: { human_samples: true },
    notes: "visited",
    last_verification_date: "2026-10-01",
  };

  it("accepts a record and stores BSL-1 style", () => {
    const r = validateVerificationRecord(record);
    expect(r.ok && r.value.max_bsl).toBe("BSL-1");
    expect(r.ok && r.value.material_approvals).toEqual({
      human_samples: true,
      animal_samples: false,
      hazardous_chemicals: false,
    });
  });

  it("rejects unknown competency types and missing dates with paths", () => {
    const r = validateVerificationRecord({
      ...record,
      competencies_verified: ["X"],
      last_verification_date: undefined,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "competencies_verified[0]", code: "invalid_value" }),
        expect.objectContaining({ path: "last_verification_date", code: "missing_required" }),
      ]),
    );
  });
});

describe("operator profile schema robustness", () => {
  it.each([
    ["commercial_terms", (p: any) => delete p.commercial_terms],
    ["capabilities", (p: any) => delete p.capabilities],
    ["commercial_terms.pricing", (p: any) => (p.commercial_terms.pricing = "cheap")],
  ])("reports %s without throwing", (path, fn) => {
    const errors = errorsOf(mutate(fn));
    expect(errors.map((e) => e.path)).toContain(path);
  });

  it("rejects a non-object body", () => {
    expect(errorsOf("profile")).toEqual([expect.objectContaining({ path: "", code: "invalid_value" })]);
  });
});
