import { describe, expect, it } from "vitest";

import { casChecksumOk, findCasNumbers, normalizeCas } from "./cas.js";
import { specialRequests } from "@petri/fixtures";
import { CONTROLLED_SUBSTANCES } from "./safety/controlled-substances.js";
import { findControlledSubstances, findHumanSubjectPhrases } from "./safety/scan.js";
import { errorAt, full, minimal, run, type Json } from "../../../test/support/intake.js";

const withMaterial = (material: Json): Json => ({
  ...minimal("MIC_MBC_ASSAY"),
  materials_provided: [material],
});

describe("bsl_level_exceeded", () => {
  for (const spelling of ["BSL-3", "BSL3", "bsl3", "bsl 4", "BSL_4", 3, "4"]) {
    it(`rejects ${JSON.stringify(spelling)}`, () => {
      const result = run({ ...minimal("MIC_MBC_ASSAY"), compliance: { bsl: spelling } });
      expect(result.valid).toBe(false);
      expect(result.safety_flags).toEqual(["bsl_level_exceeded", "safety_rejected"]);
      expect(result.safety[0]).toMatchObject({ flag: "bsl_level_exceeded", path: "compliance.bsl" });
      expect(errorAt(result, "compliance.bsl")).toEqual([
        expect.objectContaining({ code: "safety_violation" }),
      ]);
      expect(result.request).toBeUndefined();
    });
  }

  it("is rejecting in draft mode too", () => {
    expect(run({ compliance: { bsl: "BSL-3" } }, "draft").safety_flags).toContain("safety_rejected");
  });

  it("does not flag BSL-1 or BSL-2", () => {
    for (const bsl of ["BSL-1", "BSL2"]) {
      const result = run({ ...minimal("MIC_MBC_ASSAY"), compliance: { bsl } });
      expect(result.safety_flags).toEqual([]);
      expect(result.valid).toBe(true);
    }
  });
});

describe("controlled_substance", () => {
  it("finds a CAS number hidden in a material specification", () => {
    const result = run(
      withMaterial({ name: "Reagent A", specification: "white powder, lot 7 (CAS 437-38-7), 99%" }),
    );
    expect(result.safety_flags).toEqual(["controlled_substance", "safety_rejected"]);
    expect(result.safety[0]).toMatchObject({
      flag: "controlled_substance",
      path: "materials_provided[0].specification",
      message: expect.stringContaining("Fentanyl"),
    });
    expect(errorAt(result, "materials_provided[0].specification")).toEqual([
      expect.objectContaining({
        code: "safety_violation",
        message: expect.stringContaining("US DEA Schedule II"),
      }),
    ]);
  });

  it("normalises CAS numbers: dash styles, spaces, leading zeros, a CAS label without dashes, the cas_number field", () => {
    for (const text of ["50–36–2", "50 - 36 - 2", "050-36-2", "CAS No. 50362", "cas#50362"]) {
      expect(run(withMaterial({ name: "Reagent", specification: text })).safety_flags).toContain(
        "controlled_substance",
      );
    }
    const field = run(withMaterial({ name: "Reagent", cas_number: "107-44-8" }));
    expect(field.safety[0]).toMatchObject({
      path: "materials_provided[0].cas_number",
      message: expect.stringContaining("Sarin"),
    });
  });

  it("matches names and synonyms case-insensitively anywhere, on word boundaries", () => {
    const cases: Array<[Json, string, string]> = [
      [
        {
          ...minimal("CELL_VIABILITY_IC50"),
          cell_viability: { cell_line: "HepG2", compound_name: "Cocaine HCl" },
        },
        "cell_viability.compound_name",
        "Cocaine",
      ],
      [{ ...minimal("MIC_MBC_ASSAY"), title: "Testing MUSTARD GAS analogues" }, "title", "Sulfur mustard"],
      [withMaterial({ name: "Bis(2-chloroethyl) sulfide" }), "materials_provided[0].name", "Sulfur mustard"],
      [withMaterial({ name: "bis-2-chloroethyl-sulfide" }), "materials_provided[0].name", "Sulfur mustard"],
      [withMaterial({ name: "Methylphosphonyldifluoride" }), "materials_provided[0].name", "DF"],
      [withMaterial({ name: "Δ9-THC" }), "materials_provided[0].name", "THC"],
      [withMaterial({ name: "γ-hydroxybutyric acid" }), "materials_provided[0].name", "GHB"],
      [
        {
          ...minimal("MIC_MBC_ASSAY"),
          hypothesis: { statement: "Sarin degrades faster at pH 9 than at pH 7." },
        },
        "hypothesis.statement",
        "Sarin",
      ],
      [
        {
          ...specialRequests.standardTemplate,
          protocol: {
            type: "standard_template",
            template_id: "x-v1",
            template_parameters: { morphine_dose: 1 },
          },
        },
        "protocol.template_parameters.morphine_dose",
        "Morphine",
      ],
      [withMaterial({ name: "VX" }), "materials_provided[0].name", "VX"],
    ];
    for (const [input, path, name] of cases) {
      const result = run(input);
      expect(result.safety_flags, `${name} at ${path}`).toContain("controlled_substance");
      expect(result.safety.find((f) => f.flag === "controlled_substance")).toMatchObject({
        path,
        message: expect.stringContaining(name),
      });
    }
  });

  it("does not match inside other words, ambiguous abbreviations, or ordinary reagents", () => {
    const benign = [
      "quasarine dye",
      "procaine hydrochloride",
      "apomorphine",
      "Fisher's LSD post-hoc test",
      "VX-770 (ivacaftor)",
      "HD camera",
      "triethanolamine buffer",
      "thionyl chloride",
      "mustard seed extract",
      "CAS 67-68-5",
      "lot 2024-01-15",
      "ricinoleic acid",
      "Ricinus communis lectin",
      "clinical isolate of S. aureus",
    ];
    for (const text of benign) {
      const result = run(withMaterial({ name: "Reagent", specification: text }));
      expect(result.safety_flags, text).toEqual([]);
    }
    expect(run(full("CELL_VIABILITY_IC50")).safety_flags).toEqual([]);
  });

  it("reports one finding per substance and string, with the schedule", () => {
    const hits = findControlledSubstances({ a: "fentanyl 437-38-7 fentanyl", b: ["sarin"] });
    expect(hits.map((h) => [h.substance.id, h.path])).toEqual([
      ["fentanyl", ["a"]],
      ["sarin", ["b", 0]],
    ]);
    expect(hits[1]?.substance.schedule).toBe("CWC Schedule 1A");
  });

  it("scans even a body that is not a request object", () => {
    expect(run(["ricin"]).safety_flags).toEqual(["controlled_substance", "safety_rejected"]);
  });
});

describe("the controlled list", () => {
  it("has unique ids, a schedule on every entry, and CAS numbers only where verified", () => {
    const ids = CONTROLLED_SUBSTANCES.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const entry of CONTROLLED_SUBSTANCES) {
      expect(entry.schedule).toMatch(
        /^(CWC Schedule [123][AB]|US DEA Schedule I{1,2} \(21 CFR 1308\.1[12]\))$/,
      );
      if (entry.cas === undefined) expect(entry.casSource).toBe("not_verified");
      else {
        expect(entry.casSource).not.toBe("not_verified");
        expect(normalizeCas(entry.cas)).toBe(entry.cas);
        expect(casChecksumOk(entry.cas), entry.id).toBe(true);
      }
    }
  });

  it("every entry is found by its name", () => {
    for (const entry of CONTROLLED_SUBSTANCES) {
      const hits = findControlledSubstances({ text: `sample of ${entry.synonyms[0]} here` });
      expect(
        hits.map((h) => h.substance.id),
        entry.id,
      ).toContain(entry.id);
    }
  });
});

describe("CAS helpers", () => {
  it("validates the check digit", () => {
    expect(casChecksumOk("64-17-5")).toBe(true);
    expect(casChecksumOk("7732-18-5")).toBe(true);
    expect(casChecksumOk("7732-18-4")).toBe(false);
    expect(casChecksumOk("1-23-4")).toBe(false);
  });

  it("finds only checksum-valid CAS numbers in text", () => {
    expect(findCasNumbers("water 7732-18-5, bogus 7732-18-4, ethanol 64‐17‐5, date 2026-11-21")).toEqual([
      "7732-18-5",
      "64-17-5",
    ]);
  });
});

describe("human_subjects", () => {
  it("flags clear phrases anywhere outside the hypothesis, without rejecting", () => {
    for (const text of [
      "Blood drawn from healthy volunteers after informed consent",
      "Samples collected from patients at two sites",
      "IRB approval is pending",
      "We will recruit 20 participants",
      "study participants provide saliva",
    ]) {
      const result = run(withMaterial({ name: "Sample", specification: text }));
      expect(result.safety_flags, text).toEqual(["human_subjects"]);
      expect(result.valid).toBe(true);
      expect(result.review_reasons).toContain("human_subjects");
      expect(result.safety[0]).toMatchObject({ path: "materials_provided[0].specification" });
    }
  });

  it("uses weak phrases only with human-derived material", () => {
    const patientSerum = { name: "Serum", specification: "pooled patient serum" };
    expect(run(withMaterial(patientSerum)).safety_flags).toEqual([]);
    const declared = {
      ...withMaterial(patientSerum),
      compliance: { bsl: "BSL-2", human_derived_material: true },
    };
    const result = run(declared);
    expect(result.safety_flags).toEqual(["human_subjects"]);
    expect(result.review_reasons).toEqual(["bsl2_human_derived_material", "human_subjects"]);
  });

  it("does not flag human cell lines, donor material, patient-derived models or the hypothesis", () => {
    const cases: Json[] = [
      { ...full("CELL_VIABILITY_IC50") },
      {
        ...withMaterial({ name: "PBMCs", specification: "from healthy donors, commercial, de-identified" }),
        compliance: { human_derived_material: true },
      },
      {
        ...withMaterial({ name: "PDX organoids", specification: "patient-derived organoid line" }),
        compliance: { human_derived_material: true },
      },
      {
        ...minimal("CELL_VIABILITY_IC50"),
        hypothesis: {
          statement: "PX-17 could help patients with liver cancer; it reduces HepG2 viability at 1 µM.",
        },
      },
    ];
    for (const input of cases) expect(run(input).safety_flags).toEqual([]);
    expect(findHumanSubjectPhrases({ note: "clinical trial data" }, false)).toEqual([]);
    expect(findHumanSubjectPhrases({ note: "clinical trial data" }, true)).toHaveLength(1);
  });
});

describe("review reasons", () => {
  it("protocol design, custom protocols, BSL-2 with human material, flagged hazards", () => {
    expect(run(specialRequests.protocolDesign).review_reasons).toEqual([
      "protocol_design_requested",
      "custom_protocol",
    ]);
    expect(run(minimal("CUSTOM")).review_reasons).toEqual(["custom_protocol"]);
    const customForQpcr = minimal("QPCR_EXPRESSION");
    customForQpcr.protocol = { type: "custom", custom_protocol: minimal("CUSTOM").custom_protocol };
    customForQpcr.materials_provided = [{ name: "RNA" }];
    expect(run(customForQpcr).review_reasons).toEqual(["custom_protocol"]);
    expect(
      run({ ...minimal("QPCR_EXPRESSION"), compliance: { bsl: "BSL2", human_derived_material: true } })
        .review_reasons,
    ).toEqual(["bsl2_human_derived_material"]);
    expect(
      run({ ...minimal("QPCR_EXPRESSION"), compliance: { bsl: "BSL1", human_derived_material: true } })
        .review_reasons,
    ).toEqual([]);
    for (const compliance of [
      { hazardous_chemicals: true },
      { hazard_notes: "Uses 2 M NaOH" },
      { export_control_or_sanctions_risk: true },
    ]) {
      expect(run({ ...minimal("QPCR_EXPRESSION"), compliance }).review_reasons).toEqual(["flagged_hazard"]);
    }
    expect(
      run({ ...minimal("QPCR_EXPRESSION"), compliance: { hazard_notes: "   " } }).review_reasons,
    ).toEqual([]);
    expect(run(withMaterial({ name: "Acrylamide", hazardous: true })).review_reasons).toEqual([
      "flagged_hazard",
    ]);
    expect(run(minimal("QPCR_EXPRESSION")).review_reasons).toEqual([]);
  });
});
