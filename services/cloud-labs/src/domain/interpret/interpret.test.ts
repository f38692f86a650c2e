import { type Json, fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";

import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import type { CloudLabProvider, LabPlan, PlanProblem } from "../plan.js";
import { PLAN_LIMITS } from "../plan.js";
import { PROVIDERS } from "../providers/catalog.js";
import { interpretIntake, MAX_PROBLEMS, type InterpretResult } from "./interpret.js";

type Intake = { [key: string]: Json };

function planned(result: InterpretResult) {
  if ("problems" in result) throw new Error(`expected a plan, got ${JSON.stringify(result.problems)}`);
  return result;
}

function problems(result: InterpretResult): PlanProblem[] {
  if (!("problems" in result))
    throw new Error(`expected problems, got a ${result.plan.experiment_type} plan`);
  return result.problems;
}

function planOf<T extends LabPlan["experiment_type"]>(
  type: T,
  result: InterpretResult,
): Extract<LabPlan, { experiment_type: T }> {
  const { plan } = planned(result);
  expect(plan.experiment_type).toBe(type);
  return plan as Extract<LabPlan, { experiment_type: T }>;
}

const clone = <T>(value: T): T => structuredClone(value) as T;

function withProvider(changes: Partial<CloudLabProvider["capabilities"]>): CloudLabProvider {
  const base = clone(PROVIDERS[0] as CloudLabProvider);
  return { ...base, id: "test-lab", name: "Test lab", capabilities: { ...base.capabilities, ...changes } };
}

describe("interpretIntake: every type", () => {
  it.each(EXPERIMENT_TYPES)("plans the minimal %s intake with defaults, notes and confidence < 1", (type) => {
    const { plan, interpretation } = planned(interpretIntake(validRequests[type]));
    expect(plan.experiment_type).toBe(type);
    expect(interpretation.experiment_type).toBe(type);
    expect(plan.sample_count).toBeGreaterThan(0);
    expect(interpretation.confidence).toBeGreaterThan(0);
    expect(interpretation.confidence).toBeLessThan(1);
    expect(interpretation.notes.length).toBeGreaterThan(0);
    expect(interpretation.parameters.replicates).toBe(plan.replicates.technical * plan.replicates.biological);
    expect(interpretation.parameters.detection_method).toBe(plan.detection_method);
  });

  it.each(EXPERIMENT_TYPES)("plans the full %s intake from what it states (confidence 1)", (type) => {
    const { plan, interpretation } = planned(interpretIntake(fullRequests[type]));
    expect(plan.experiment_type).toBe(type);
    expect(interpretation.confidence).toBe(1);
  });

  it("MIC from mic_mbc: range -> two-fold series, stated parameters kept", () => {
    const result = interpretIntake(fullRequests.MIC_MBC_ASSAY);
    const plan = planOf("MIC_MBC_ASSAY", result);
    expect(plan.organisms).toEqual([{ name: "Staphylococcus aureus", strain: "ATCC 29213" }]);
    expect(plan.compounds).toEqual([
      { name: "PX-17", concentrations_ug_ml: [64, 32, 16, 8, 4, 2, 1, 0.5, 0.25, 0.125] },
    ]);
    expect(plan).toMatchObject({
      medium: "Cation-adjusted Mueller-Hinton broth",
      inoculum_cfu_ml: 500000,
      incubation_hours: 18,
      temperature_c: 35,
      determine_mbc: true,
      positive_control: "Vancomycin",
      bsl: "BSL-2",
      replicates: { technical: 3, biological: 3 },
      sample_count: 10 * 3 * 3,
      detection_method: "absorbance",
    });
    expect(planned(result).interpretation.parameters).toEqual({
      organisms: [{ name: "Staphylococcus aureus", strain: "ATCC 29213" }],
      compounds: [
        { name: "PX-17", concentrations: [64, 32, 16, 8, 4, 2, 1, 0.5, 0.25, 0.125], unit: "µg/mL" },
      ],
      replicates: 9,
      incubation_hours: 18,
      detection_method: "absorbance",
    });
  });

  it("MIC converts a range given in mg/L and ng/mL into µg/mL", () => {
    const intake = clone(validRequests.MIC_MBC_ASSAY) as Intake;
    intake.mic_mbc = {
      ...(intake.mic_mbc as Intake),
      concentration_range: { min: 500, max: 4000, unit: "ng/mL" },
    };
    expect(planOf("MIC_MBC_ASSAY", interpretIntake(intake)).compounds[0]?.concentrations_ug_ml).toEqual([
      4, 2, 1, 0.5,
    ]);
    intake.mic_mbc = { ...(intake.mic_mbc as Intake), concentration_range: { min: 1, max: 8, unit: "mg/L" } };
    expect(planOf("MIC_MBC_ASSAY", interpretIntake(intake)).compounds[0]?.concentrations_ug_ml).toEqual([
      8, 4, 2, 1,
    ]);
  });

  it("MIC refuses a molar range and methods other than broth microdilution", () => {
    const intake = clone(validRequests.MIC_MBC_ASSAY) as Intake;
    intake.mic_mbc = {
      ...(intake.mic_mbc as Intake),
      concentration_range: { min: 1, max: 64, unit: "µM" },
      method: "agar_dilution",
    };
    const fields = problems(interpretIntake(intake)).map((p) => p.field);
    expect(fields).toEqual(expect.arrayContaining(["mic_mbc.concentration_range.unit", "mic_mbc.method"]));
  });

  it("zone: loadings in µg per disk, M02 defaults", () => {
    const plan = planOf("ZONE_OF_INHIBITION", interpretIntake(fullRequests.ZONE_OF_INHIBITION));
    expect(plan.agents).toEqual([{ name: "PX-17", disk_loading_ug: [30, 10] }]);
    expect(plan.organisms).toEqual([{ name: "Staphylococcus aureus", strain: "ATCC 25923" }]);
    expect(plan.detection_method).toBe("imaging");
    expect(plan.sample_count).toBe(2 * 3 * 3);

    const minimal = planned(interpretIntake(validRequests.ZONE_OF_INHIBITION));
    expect(minimal.plan).toMatchObject({
      medium: "Mueller-Hinton agar",
      disk_diameter_mm: 6,
      incubation_hours: 18,
      temperature_c: 35,
      agents: [{ name: "PX-17", disk_loading_ug: [30] }],
    });
    expect(minimal.interpretation.parameters.compounds).toEqual([
      { name: "PX-17", concentrations: [30], unit: "µg/disk" },
    ]);
  });

  it("viability: the dose range in nM becomes a 3-fold µM series; 384-well kept", () => {
    const { plan, interpretation } = planned(interpretIntake(fullRequests.CELL_VIABILITY_IC50));
    const viability = plan as Extract<LabPlan, { experiment_type: "CELL_VIABILITY_IC50" }>;
    expect(viability.compound.concentrations_um).toEqual([
      30, 10, 3.33, 1.11, 0.37, 0.123, 0.0412, 0.0137, 0.00457, 0.00152,
    ]);
    expect(viability).toMatchObject({
      plate_format: "384-well",
      detection_method: "luminescence",
      assay_type: "CELLTITER_GLO",
      seeding_density_cells_per_well: 2000,
      exposure_hours: 72,
      sample_count: 10 * 3 * 3,
    });
    // The stated min (1 nM) is not where 10 3-fold points from 30 µM end: said, not changed.
    expect(interpretation.notes.join(" ")).toMatch(/ends at 0\.00152 µM, not at min 0\.001 µM/);
  });

  it("viability defaults: 10-point half-log from 30 µM, CellTiter-Glo, 72 h, 5,000 cells", () => {
    const { plan, interpretation } = planned(interpretIntake(validRequests.CELL_VIABILITY_IC50));
    expect(plan).toMatchObject({
      compound: { name: "PX-17", concentrations_um: [30, 10, 3, 1, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001] },
      assay_type: "CELLTITER_GLO",
      detection_method: "luminescence",
      exposure_hours: 72,
      seeding_density_cells_per_well: 5000,
      solvent: "DMSO",
      plate_format: "96-well",
      sample_count: 30,
    });
    expect(interpretation.notes).toEqual(
      expect.arrayContaining([
        "No dose range: a 10-point half-log series from 30 µM planned.",
        "Exposure time not stated: 72 h assumed.",
      ]),
    );
  });

  it.each([
    [
      { min: 0.01, max: 100, unit: "µM", dilution_series: "half-log" },
      [100, 30, 10, 3, 1, 0.3, 0.1, 0.03, 0.01],
    ],
    [{ min: 1, max: 64, unit: "µM", dilution_series: "2-fold" }, [64, 32, 16, 8, 4, 2, 1]],
    [{ min: 0.001, max: 1, unit: "mM", points: 4 }, [1000, 100, 10, 1]],
    [{ max: 10, unit: "µM", points: 3, dilution_series: "3-fold" }, [10, 3.33, 1.11]],
    [{ min: 0, max: 10, unit: "µM", dilution_series: "half-log", points: 3 }, [10, 3, 1]],
  ])("viability dose_range %j -> %j", (doseRange, expected) => {
    const intake = clone(validRequests.CELL_VIABILITY_IC50) as Intake;
    intake.cell_viability = { ...(intake.cell_viability as Intake), dose_range: doseRange };
    const plan = planOf("CELL_VIABILITY_IC50", interpretIntake(intake));
    expect(plan.compound.concentrations_um).toEqual(expected);
  });

  it("viability: a mass unit needs a molecular weight, so it is a problem", () => {
    const intake = clone(validRequests.CELL_VIABILITY_IC50) as Intake;
    intake.cell_viability = {
      ...(intake.cell_viability as Intake),
      dose_range: { min: 1, max: 100, unit: "µg/mL" },
    };
    expect(problems(interpretIntake(intake))).toEqual([
      { field: "cell_viability.dose_range.unit", message: expect.stringMatching(/not a molar unit/) },
    ]);
  });

  it("enzyme: nM concentrations -> µM highest first; a radiometric assay is refused", () => {
    const plan = planOf("ENZYME_INHIBITION_IC50", interpretIntake(fullRequests.ENZYME_INHIBITION_IC50));
    expect(plan.inhibitor.concentrations_um).toEqual([
      6.561, 2.187, 0.729, 0.243, 0.081, 0.027, 0.009, 0.003, 0.001,
    ]);
    expect(plan).toMatchObject({
      substrate: "4-nitrophenyl acetate",
      assay_type: "COLORIMETRIC",
      detection_method: "absorbance",
      wavelength_nm: 400,
      incubation_minutes: 15,
    });

    const radiometric = clone(fullRequests.ENZYME_INHIBITION_IC50) as Intake;
    (radiometric.enzyme_inhibition as Intake).assay_type = "RADIOMETRIC";
    expect(problems(interpretIntake(radiometric)).map((p) => p.field)).toEqual([
      "enzyme_inhibition.assay_type",
    ]);
  });

  it("enzyme defaults: 10-point half-log from 100 µM, 30 min at 25 °C, standard substrate said out loud", () => {
    const { plan, interpretation } = planned(interpretIntake(validRequests.ENZYME_INHIBITION_IC50));
    expect(plan).toMatchObject({
      inhibitor: { concentrations_um: [100, 30, 10, 3, 1, 0.3, 0.1, 0.03, 0.01, 0.003] },
      incubation_minutes: 30,
      temperature_c: 25,
    });
    expect(interpretation.parameters.incubation_hours).toBe(0.5);
    expect(interpretation.notes.some((n) => n.startsWith("Substrate not stated"))).toBe(true);
  });

  it("qPCR: samples shared among conditions, reactions counted per gene", () => {
    const plan = planOf("QPCR_EXPRESSION", interpretIntake(fullRequests.QPCR_EXPRESSION));
    expect(plan.samples).toHaveLength(12);
    expect(plan.samples.slice(0, 2)).toEqual(["vehicle-1", "vehicle-2"]);
    expect(plan.samples[6]).toBe("treated-1");
    expect(plan.reference_genes).toEqual(["GAPDH", "ACTB"]);
    expect(plan.sample_count).toBe(12 * (2 + 2) * 3);
  });

  it("qPCR defaults: SYBR Green, 20 µL, 40 cycles; GAPDH + ACTB only when no reference gene is given", () => {
    const given = planOf("QPCR_EXPRESSION", interpretIntake(validRequests.QPCR_EXPRESSION));
    expect(given).toMatchObject({ chemistry: "SYBR_GREEN", reaction_volume_ul: 20, cycles: 40 });
    expect(given.reference_genes).toEqual(["GAPDH"]);

    const none = clone(validRequests.QPCR_EXPRESSION) as Intake;
    delete (none.qpcr as Intake).housekeeping_genes;
    const result = planned(interpretIntake(none));
    expect((result.plan as typeof given).reference_genes).toEqual(["GAPDH", "ACTB"]);
    expect(result.interpretation.notes.some((n) => n.startsWith("No reference genes: GAPDH and ACTB"))).toBe(
      true,
    );
  });

  it("qPCR without a sample count or conditions is a problem", () => {
    const intake = clone(validRequests.QPCR_EXPRESSION) as Intake;
    delete (intake.qpcr as Intake).number_of_samples;
    expect(problems(interpretIntake(intake)).map((p) => p.field)).toEqual(["qpcr.number_of_samples"]);
  });

  it("Sanger: M13 primers for a plasmid by default; a PCR product needs named primers", () => {
    const plan = planOf(
      "SANGER_PLASMID_VERIFICATION",
      interpretIntake(validRequests.SANGER_PLASMID_VERIFICATION),
    );
    expect(plan.primers.map((p) => p.name)).toEqual(["M13F", "M13R"]);
    expect(plan.sample_count).toBe(2);

    const full = planOf(
      "SANGER_PLASMID_VERIFICATION",
      interpretIntake(fullRequests.SANGER_PLASMID_VERIFICATION),
    );
    expect(full.primers[2]).toEqual({ name: "GFP-mid-F", sequence: "CTGACCCTGAAGTTCATCTG" });

    const pcr = clone(validRequests.SANGER_PLASMID_VERIFICATION) as Intake;
    pcr.sanger = { template_type: "pcr_product" };
    expect(problems(interpretIntake(pcr)).map((p) => p.field)).toEqual(["sanger.primers"]);

    const badSequence = clone(fullRequests.SANGER_PLASMID_VERIFICATION) as Intake;
    ((badSequence.sanger as Intake).primers as Intake[])[0] = { name: "M13F", sequence: "GTAXXACG" };
    expect(problems(interpretIntake(badSequence)).map((p) => p.field)).toEqual([
      "sanger.primers[0].sequence",
    ]);
  });

  it("growth: the full factorial matrix, read interval from the schedule", () => {
    const plan = planOf("MICROBIAL_GROWTH_MATRIX", interpretIntake(fullRequests.MICROBIAL_GROWTH_MATRIX));
    expect(plan.conditions.map((c) => c.label)).toEqual([
      "glucose=0.1 %, NaCl=50 mM",
      "glucose=0.1 %, NaCl=300 mM",
      "glucose=0.4 %, NaCl=50 mM",
      "glucose=0.4 %, NaCl=300 mM",
    ]);
    expect(plan).toMatchObject({
      read_interval_minutes: 15,
      duration_hours: 12,
      medium: "M9 minimal medium",
      organism: { name: "Escherichia coli", strain: "MG1655" },
      sample_count: 4 * 3 * 3,
    });
  });

  it("custom: steps in minutes and °C from either place; read-out from the words", () => {
    const plan = planOf("CUSTOM", interpretIntake(fullRequests.CUSTOM));
    expect(plan.steps[0]).toMatchObject({ duration_minutes: 1440, temperature_c: 37 });
    expect(plan.steps[1]).toMatchObject({ duration_minutes: 10, temperature_c: null });
    expect(plan.detection_method).toBe("absorbance");
    expect(plan.replicates).toEqual({ technical: 6, biological: 3 });
    expect(plan.sample_count).toBe(4 * 6 * 3);

    const fahrenheit = clone(fullRequests.CUSTOM) as Intake;
    const steps = ((fahrenheit.protocol as Intake).custom_protocol as Intake).steps as Intake[];
    (steps[0] as Intake).temperature = { value: 98.6, unit: "F" };
    expect(planOf("CUSTOM", interpretIntake(fahrenheit)).steps[0]?.temperature_c).toBe(37);
  });

  it("custom: the same protocol in both places is fine; two different ones are a problem", () => {
    const both = clone(fullRequests.CUSTOM) as Intake;
    both.custom_protocol = clone((both.protocol as Intake).custom_protocol) as Json;
    planned(interpretIntake(both));
    ((both.custom_protocol as Intake).steps as Intake[]).pop();
    expect(problems(interpretIntake(both)).map((p) => p.field)).toEqual(["protocol.custom_protocol"]);
  });

  it("custom: a protocol design request cannot be planned yet", () => {
    const design = {
      experiment_type: "CUSTOM",
      title: "Design a biofilm dispersal assay",
      protocol: { type: "protocol_design_requested", protocol_design_brief: "We need a protocol." },
    };
    expect(problems(interpretIntake(design))).toEqual([
      { field: "custom_protocol", message: expect.stringMatching(/protocol design request/) },
    ]);
  });
});

describe("interpretIntake: the cloud-lab MIC form", () => {
  it("plans organisms x compounds with the listed concentrations, strains read from the names", () => {
    const { plan, interpretation } = planned(interpretIntake(specialRequests.micCloudLab));
    const mic = plan as Extract<LabPlan, { experiment_type: "MIC_MBC_ASSAY" }>;
    expect(mic.organisms).toEqual([
      { name: "Escherichia coli", strain: "ATCC 25922" },
      { name: "Staphylococcus aureus", strain: "ATCC 29213" },
    ]);
    expect(mic.compounds.map((c) => c.name)).toEqual(["PX-17", "PX-18"]);
    expect(mic.compounds[0]?.concentrations_ug_ml).toEqual([64, 32, 16, 8, 4, 2, 1, 0.5, 0.25, 0.125]);
    expect(mic.sample_count).toBe(2 * 2 * 10 * 3);
    expect(interpretation.parameters.compounds[1]).toEqual({
      name: "PX-18",
      concentrations: [64, 32, 16, 8, 4, 2, 1, 0.5, 0.25, 0.125],
      unit: "µg/mL",
    });
    // Organisms, compounds and concentrations stated; medium, inoculum, time, temperature,
    // two replicate counts and the biosafety level defaulted: 3 of 10.
    expect(interpretation.confidence).toBe(0.3);
  });

  it("joins mic_mbc and mic_mbc_assay, counting a compound named in both once", () => {
    const intake = clone(specialRequests.micCloudLab) as Intake;
    intake.mic_mbc = {
      organism: "Pseudomonas aeruginosa",
      strain: "ATCC 27853",
      compound_name: "px-17",
      concentration_range: { min: 1, max: 8, unit: "µg/mL" },
      incubation_temperature_c: 36,
    };
    const plan = planOf("MIC_MBC_ASSAY", interpretIntake(intake));
    expect(plan.organisms.map((o) => o.name)).toEqual([
      "Escherichia coli",
      "Staphylococcus aureus",
      "Pseudomonas aeruginosa",
    ]);
    expect(plan.compounds).toHaveLength(2);
    expect(plan.compounds[0]?.concentrations_ug_ml).toHaveLength(10);
    expect(plan.temperature_c).toBe(36);
  });

  it("counts repeated concentrations once and says so", () => {
    const intake = clone(specialRequests.micCloudLab) as Intake;
    ((intake.mic_mbc_assay as Intake).test_compounds as Intake[])[0] = {
      name: "PX-17",
      concentrations_ug_ml: [1, 2, 2, 4],
    };
    const { plan, interpretation } = planned(interpretIntake(intake));
    expect(
      (plan as Extract<LabPlan, { experiment_type: "MIC_MBC_ASSAY" }>).compounds[0]?.concentrations_ug_ml,
    ).toEqual([4, 2, 1]);
    expect(interpretation.notes).toContain("PX-17: 1 repeated concentration(s) counted once.");
  });
});

describe("interpretIntake: spellings", () => {
  it.each([
    [{ replicates: { technical: 4, biological: 2 } }],
    [{ replicates: { technical_replicates: 4, biological_replicates: 2 } }],
    [{ protocol: { replicates: { technical_replicates: 4, biological_replicates: 2 } } }],
    [{ replicates: { technical: 4 }, protocol: { replicates: { technical_replicates: 4, biological: 2 } } }],
  ])("replicates %j -> 4 x 2", (extra) => {
    const plan = planned(interpretIntake({ ...validRequests.MIC_MBC_ASSAY, ...extra })).plan;
    expect(plan.replicates).toEqual({ technical: 4, biological: 2 });
  });

  it("two different replicate counts are a problem at the second place", () => {
    const result = interpretIntake({
      ...validRequests.MIC_MBC_ASSAY,
      replicates: { technical: 3, technical_replicates: 4 },
    });
    expect(problems(result)).toEqual([
      {
        field: "replicates.technical_replicates",
        message: expect.stringMatching(/conflicts with replicates\.technical/),
      },
    ]);
  });

  it.each([
    ["BSL1", "BSL-1"],
    ["BSL-1", "BSL-1"],
    ["bsl 2", "BSL-2"],
    ["BSL_2", "BSL-2"],
    [2, "BSL-2"],
  ])("compliance.bsl %j -> %s", (bsl, expected) => {
    const plan = planned(interpretIntake({ ...validRequests.MIC_MBC_ASSAY, compliance: { bsl } })).plan;
    expect(plan.bsl).toBe(expected);
  });

  it.each([["BSL3"], ["BSL-4"], [3]])("compliance.bsl %j is refused", (bsl) => {
    const result = interpretIntake({ ...validRequests.MIC_MBC_ASSAY, compliance: { bsl } });
    expect(problems(result)).toEqual([
      { field: "compliance.bsl", message: expect.stringMatching(/bsl_level_exceeded/) },
    ]);
  });

  it("null reads as not stated; text is trimmed", () => {
    const intake = clone(validRequests.MIC_MBC_ASSAY) as Intake;
    intake.mic_mbc = {
      organism: "  Staphylococcus aureus  ",
      compound_name: "PX-17 ",
      medium: null,
      strain: "",
    };
    const plan = planOf("MIC_MBC_ASSAY", interpretIntake(intake));
    expect(plan.organisms).toEqual([{ name: "Staphylococcus aureus", strain: null }]);
    expect(plan.compounds[0]?.name).toBe("PX-17");
    expect(plan.medium).toBe("cation-adjusted Mueller-Hinton broth");
  });
});

describe("interpretIntake: problems", () => {
  it.each([[null], [[]], ["MIC"], [42], [true]])("a non-object intake (%j) is a problem", (intake) => {
    expect(problems(interpretIntake(intake))).toEqual([{ field: "intake", message: expect.any(String) }]);
  });

  it("a missing or unknown experiment_type is a problem", () => {
    expect(problems(interpretIntake({ title: "x" }))).toEqual([
      { field: "experiment_type", message: "is required" },
    ]);
    expect(problems(interpretIntake({ experiment_type: "WESTERN_BLOT" }))).toEqual([
      { field: "experiment_type", message: expect.stringMatching(/invalid_experiment_type/) },
    ]);
    expect(problems(interpretIntake({ experiment_type: "mic_mbc_assay" }))[0]?.field).toBe("experiment_type");
  });

  it.each([
    ["ZONE_OF_INHIBITION", "zone_of_inhibition"],
    ["CELL_VIABILITY_IC50", "cell_viability"],
    ["ENZYME_INHIBITION_IC50", "enzyme_inhibition"],
    ["QPCR_EXPRESSION", "qpcr"],
    ["SANGER_PLASMID_VERIFICATION", "sanger"],
    ["MICROBIAL_GROWTH_MATRIX", "microbial_growth"],
    ["MIC_MBC_ASSAY", "mic_mbc"],
    ["CUSTOM", "custom_protocol"],
  ])("%s without its section is a problem at %s", (type, field) => {
    expect(problems(interpretIntake({ experiment_type: type })).map((p) => p.field)).toEqual([field]);
  });

  it("is strict about the type of present fields, with plain messages and paths", () => {
    const intake = clone(fullRequests.MIC_MBC_ASSAY) as Intake;
    const mic = intake.mic_mbc as Intake;
    mic.incubation_hours = "18";
    mic.concentration_range = { min: 0.125, max: 64, unit: 7 };
    const found = problems(interpretIntake(intake));
    expect(found).toEqual(
      expect.arrayContaining([
        { field: "mic_mbc.incubation_hours", message: "must be a number" },
        { field: "mic_mbc.concentration_range.unit", message: "must be a string" },
      ]),
    );
    expect(problems(interpretIntake({ ...validRequests.MIC_MBC_ASSAY, title: 5 }))).toEqual([
      { field: "title", message: "must be a string" },
    ]);
    const missingCompound = problems(
      interpretIntake({ experiment_type: "ZONE_OF_INHIBITION", zone_of_inhibition: { organism: "E. coli" } }),
    );
    expect(missingCompound).toEqual([{ field: "zone_of_inhibition.compound_name", message: "is required" }]);
  });

  it("bounds text: longer than PLAN_LIMITS.text or with control characters is a problem", () => {
    const long = interpretIntake({
      ...validRequests.MIC_MBC_ASSAY,
      mic_mbc: { organism: "x".repeat(PLAN_LIMITS.text + 1), compound_name: "PX-17" },
    });
    expect(problems(long)).toEqual([
      { field: "mic_mbc.organism", message: `must be at most ${PLAN_LIMITS.text} characters` },
    ]);
    const control = interpretIntake({
      ...validRequests.MIC_MBC_ASSAY,
      mic_mbc: { organism: 'E. coli\n"]; Drop', compound_name: "PX-17" },
    });
    expect(problems(control)[0]?.field).toBe("mic_mbc.organism");
  });
});

describe("interpretIntake: limits (refused, never truncated)", () => {
  it("a hostile list of 10,000 concentrations is one problem", () => {
    const intake = clone(specialRequests.micCloudLab) as Intake;
    ((intake.mic_mbc_assay as Intake).test_compounds as Intake[])[0] = {
      name: "PX-17",
      concentrations_ug_ml: Array.from({ length: 10_000 }, (_, i) => i + 1),
    };
    expect(problems(interpretIntake(intake))).toEqual([
      {
        field: "mic_mbc_assay.test_compounds[0].concentrations_ug_ml",
        message: `at most ${PLAN_LIMITS.concentrations} concentrations are supported (got 10000)`,
      },
    ]);
  });

  it("10,000 invalid concentrations still give one problem, not 10,000", () => {
    const intake = clone(specialRequests.micCloudLab) as Intake;
    ((intake.mic_mbc_assay as Intake).test_compounds as Intake[])[0] = {
      name: "PX-17",
      concentrations_ug_ml: Array.from({ length: 10_000 }, () => "lots"),
    };
    expect(problems(interpretIntake(intake))).toHaveLength(1);
  });

  it("ranges that would give too many points are refused before they are built", () => {
    const mic = interpretIntake({
      ...validRequests.MIC_MBC_ASSAY,
      mic_mbc: {
        organism: "E. coli",
        compound_name: "PX-17",
        concentration_range: { min: 1e-300, max: 1e300, unit: "µg/mL", dilution_series: "2-fold" },
      },
    });
    expect(problems(mic)).toEqual([
      { field: "mic_mbc.concentration_range", message: expect.stringMatching(/at most 24 are supported/) },
    ]);
    const points = interpretIntake({
      ...validRequests.CELL_VIABILITY_IC50,
      cell_viability: {
        cell_line: "HepG2",
        compound_name: "PX-17",
        dose_range: { max: 10, unit: "µM", points: 1_000_000 },
      },
    });
    expect(problems(points).map((p) => p.field)).toEqual(["cell_viability.dose_range.points"]);
  });

  it("too many organisms, compounds, genes, samples, steps, conditions and replicates", () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `item ${i + 1}`);
    const cases: [Intake, string][] = [
      [
        {
          ...specialRequests.micCloudLab,
          mic_mbc_assay: {
            target_organisms: many(9),
            test_compounds: [{ name: "A", concentrations_ug_ml: [1] }],
          },
        },
        "mic_mbc_assay.target_organisms",
      ],
      [
        {
          ...specialRequests.micCloudLab,
          mic_mbc_assay: {
            target_organisms: ["E. coli"],
            test_compounds: many(9).map((name) => ({ name, concentrations_ug_ml: [1] })),
          },
        },
        "mic_mbc_assay.test_compounds",
      ],
      [
        {
          ...validRequests.QPCR_EXPRESSION,
          qpcr: { targets: many(17).map((g) => ({ gene_symbol: g })), number_of_samples: 2 },
        },
        "qpcr.targets",
      ],
      [
        {
          ...validRequests.QPCR_EXPRESSION,
          qpcr: { targets: [{ gene_symbol: "IL6" }], number_of_samples: 49 },
        },
        "qpcr.number_of_samples",
      ],
      [
        {
          experiment_type: "CUSTOM",
          custom_protocol: { steps: many(51).map((action) => ({ action })) },
        },
        "custom_protocol.steps",
      ],
      [
        {
          experiment_type: "MICROBIAL_GROWTH_MATRIX",
          microbial_growth: {
            organism: "E. coli",
            condition_matrix: ["a", "b", "c"].map((variable) => ({
              variable,
              values: [1, 2, 3, 4].map((value) => ({ value })),
            })),
          },
        },
        "microbial_growth.condition_matrix",
      ],
      [{ ...validRequests.MIC_MBC_ASSAY, replicates: { technical: 7 } }, "replicates.technical"],
      [
        { ...validRequests.MIC_MBC_ASSAY, replicates: { biological_replicates: 7 } },
        "replicates.biological_replicates",
      ],
    ];
    for (const [intake, field] of cases) {
      expect(problems(interpretIntake(intake)).map((p) => p.field)).toEqual([field]);
    }
  });

  it("lists at most MAX_PROBLEMS problems", () => {
    const steps = Array.from({ length: PLAN_LIMITS.custom_steps }, () => ({ action: 1, duration: "long" }));
    const found = problems(interpretIntake({ experiment_type: "CUSTOM", custom_protocol: { steps } }));
    expect(found).toHaveLength(MAX_PROBLEMS);
    expect(found[MAX_PROBLEMS - 1]).toEqual({
      field: "intake",
      message: expect.stringMatching(/more problems not listed/),
    });
  });
});

describe("interpretIntake: provider preferences", () => {
  it("viability without an assay type: luminescence where there is a luminometer, else resazurin, else MTS", () => {
    const intake = validRequests.CELL_VIABILITY_IC50;
    expect(planned(interpretIntake(intake, withProvider({}))).plan).toMatchObject({
      detection_method: "luminescence",
      assay_type: "CELLTITER_GLO",
    });
    expect(
      planned(interpretIntake(intake, withProvider({ detection_methods: ["absorbance", "fluorescence"] })))
        .plan,
    ).toMatchObject({ detection_method: "fluorescence", assay_type: "RESAZURIN" });
    expect(
      planned(interpretIntake(intake, withProvider({ detection_methods: ["absorbance"] }))).plan,
    ).toMatchObject({
      detection_method: "absorbance",
      assay_type: "MTS",
    });
  });

  it("a stated assay type is kept whatever the provider has", () => {
    const intake = fullRequests.CELL_VIABILITY_IC50;
    const plan = planned(interpretIntake(intake, withProvider({ detection_methods: ["absorbance"] }))).plan;
    expect(plan.detection_method).toBe("luminescence");
  });

  it("plate format: 384-well when that is all the provider has, unless the intake states one", () => {
    const only384 = withProvider({ plate_formats: ["384-well"] });
    const result = planned(interpretIntake(validRequests.MIC_MBC_ASSAY, only384));
    expect(result.plan.plate_format).toBe("384-well");
    expect(result.interpretation.notes).toContain("Plate format: 384-well, the format Test lab offers.");
    expect(planned(interpretIntake(validRequests.MIC_MBC_ASSAY)).plan.plate_format).toBe("96-well");

    const stated = clone(validRequests.CELL_VIABILITY_IC50) as Intake;
    (stated.cell_viability as Intake).plate_format = "96-well";
    expect(planned(interpretIntake(stated, only384)).plan.plate_format).toBe("96-well");
    // 384-well plates get fewer cells per well by default.
    expect(planned(interpretIntake(validRequests.CELL_VIABILITY_IC50, only384)).plan).toMatchObject({
      plate_format: "384-well",
      seeding_density_cells_per_well: 1250,
    });
  });

  it("enzyme without an assay type follows the provider's readers", () => {
    const plan = planned(
      interpretIntake(
        validRequests.ENZYME_INHIBITION_IC50,
        withProvider({ detection_methods: ["luminescence"] }),
      ),
    ).plan;
    expect(plan).toMatchObject({ detection_method: "luminescence", assay_type: "LUMINESCENT" });
  });

  it("is deterministic: the same intake and provider give the same answer", () => {
    for (const intake of [
      ...Object.values(validRequests),
      ...Object.values(fullRequests),
      specialRequests.micCloudLab,
    ]) {
      for (const provider of [undefined, ...PROVIDERS]) {
        expect(interpretIntake(intake, provider)).toEqual(interpretIntake(clone(intake), provider));
      }
    }
  });
});
