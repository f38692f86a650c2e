import { fullRequests, validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";

import { SAMPLE_PLANS } from "../../../test/support/sample-plans.js";
import { interpretIntake } from "../interpret/interpret.js";
import type { CloudLabProvider, LabPlan } from "../plan.js";
import { assayWarnings, capabilityProblems, estimateCost } from "./capabilities.js";
import { findProvider, PROVIDERS } from "./catalog.js";

const sll = findProvider("petri-sll-sandbox") as CloudLabProvider;
const autoprotocol = findProvider("petri-autoprotocol-sandbox") as CloudLabProvider;
const microbiology = findProvider("petri-microbiology-sandbox") as CloudLabProvider;

function plan<T extends LabPlan["experiment_type"]>(type: T): Extract<LabPlan, { experiment_type: T }> {
  return structuredClone(SAMPLE_PLANS[type]) as Extract<LabPlan, { experiment_type: T }>;
}

const ids = (warnings: string[]) => warnings.map((w) => w.split(":")[0]);

describe("capabilityProblems", () => {
  it("is empty when the provider can run the plan", () => {
    expect(capabilityProblems(plan("MIC_MBC_ASSAY"), sll)).toEqual([]);
    expect(capabilityProblems(plan("CELL_VIABILITY_IC50"), autoprotocol)).toEqual([]);
    expect(capabilityProblems(plan("ZONE_OF_INHIBITION"), microbiology)).toEqual([]);
    expect(capabilityProblems(plan("SANGER_PLASMID_VERIFICATION"), autoprotocol)).toEqual([]);
    expect(capabilityProblems(plan("CUSTOM"), sll)).toEqual([]);
  });

  it("names the unsupported type", () => {
    expect(capabilityProblems(plan("CUSTOM"), autoprotocol)).toEqual([
      {
        field: "experiment_type",
        message: expect.stringMatching(/CUSTOM is not run by Petri Autoprotocol sandbox/),
      },
    ]);
  });

  it("names a provider that is not available", () => {
    const down: CloudLabProvider = { ...sll, status: "maintenance" };
    expect(capabilityProblems(plan("MIC_MBC_ASSAY"), down)).toEqual([
      { field: "provider_id", message: expect.stringMatching(/under maintenance/) },
    ]);
  });

  it("names a cell line the provider does not stock, matching spellings loosely", () => {
    const vero = { ...plan("CELL_VIABILITY_IC50"), cell_line: "Vero" };
    expect(capabilityProblems(vero, sll)).toEqual([]);
    expect(capabilityProblems(vero, autoprotocol)).toEqual([
      {
        field: "cell_viability.cell_line",
        message: expect.stringMatching(/Vero is not stocked by .*stocked: A549/),
      },
    ]);
    expect(capabilityProblems({ ...plan("CELL_VIABILITY_IC50"), cell_line: "hep-g2" }, autoprotocol)).toEqual(
      [],
    );
  });

  it("names plate formats and read-outs the provider lacks, at the intake field when there is one", () => {
    const viability384 = { ...plan("CELL_VIABILITY_IC50"), plate_format: "384-well" as const };
    const onlyAbsorbance: CloudLabProvider = {
      ...sll,
      capabilities: { ...sll.capabilities, plate_formats: ["96-well"], detection_methods: ["absorbance"] },
    };
    expect(capabilityProblems(viability384, onlyAbsorbance).map((p) => p.field)).toEqual([
      "cell_viability.plate_format",
      "cell_viability.assay_type",
    ]);
    const enzyme = { ...plan("ENZYME_INHIBITION_IC50"), detection_method: "fluorescence" as const };
    expect(capabilityProblems(enzyme, onlyAbsorbance).map((p) => p.field)).toEqual([
      "enzyme_inhibition.assay_type",
    ]);
    const only96: CloudLabProvider = {
      ...microbiology,
      capabilities: { ...microbiology.capabilities, plate_formats: ["96-well"] },
    };
    expect(capabilityProblems({ ...plan("MIC_MBC_ASSAY"), plate_format: "384-well" }, only96)).toEqual([
      { field: "plate_format", message: expect.stringMatching(/384-well plates are not available/) },
    ]);
    expect(capabilityProblems(plan("ZONE_OF_INHIBITION"), sll).map((p) => p.field)).toEqual([
      "experiment_type",
      "detection_method",
    ]);
  });

  it("names a biosafety level above the provider's maximum", () => {
    const bsl2 = { ...plan("MIC_MBC_ASSAY"), bsl: "BSL-2" as const };
    expect(capabilityProblems(bsl2, autoprotocol)).toEqual([
      { field: "compliance.bsl", message: expect.stringMatching(/BSL-2 work is above .*BSL-1 at most/) },
    ]);
    expect(capabilityProblems(bsl2, sll)).toEqual([]);
  });

  it("works on interpreted intakes: the BSL-2 MIC fixture fits the SLL and microbiology labs only", () => {
    const result = interpretIntake(fullRequests.MIC_MBC_ASSAY);
    if ("problems" in result) throw new Error("expected a plan");
    const fits = PROVIDERS.filter((p) => capabilityProblems(result.plan, p).length === 0).map((p) => p.id);
    expect(fits).toEqual(["petri-sll-sandbox", "petri-microbiology-sandbox"]);
  });
});

describe("assayWarnings", () => {
  it("has nothing to say about the well-designed sample plans", () => {
    expect(assayWarnings(plan("MIC_MBC_ASSAY"))).toEqual([]);
    expect(assayWarnings(plan("ZONE_OF_INHIBITION"))).toEqual([]);
    expect(assayWarnings(plan("QPCR_EXPRESSION"))).toEqual([]);
    expect(assayWarnings(plan("SANGER_PLASMID_VERIFICATION"))).toEqual([]);
    expect(assayWarnings(plan("MICROBIAL_GROWTH_MATRIX"))).toEqual([]);
    expect(assayWarnings(plan("CUSTOM"))).toEqual([]);
  });

  it("MIC-N, MIC-DIL: too few or not two-fold concentrations", () => {
    const mic = plan("MIC_MBC_ASSAY");
    mic.compounds = [
      { name: "A", concentrations_ug_ml: [32, 16, 8, 4, 2, 1] },
      { name: "B", concentrations_ug_ml: [8, 4] },
      { name: "C", concentrations_ug_ml: [90, 30, 10, 3.33, 1.11, 0.37, 0.123, 0.0412] },
    ];
    expect(assayWarnings(mic)).toEqual([
      "MIC-N: A: 6 concentrations; at least 8 are recommended",
      "MIC-N: B: 2 concentrations; at least 3 are needed to bracket a MIC and 8 are recommended",
      "MIC-DIL: C: the concentrations are not a two-fold series; CLSI M07 uses two-fold dilutions",
    ]);
  });

  it("MIC-INOC, MIC-TEMP, MIC-TIME, MIC-MED, MIC-CTRL", () => {
    const mic = {
      ...plan("MIC_MBC_ASSAY"),
      inoculum_cfu_ml: 1e7,
      temperature_c: 30,
      incubation_hours: 48,
      medium: "LB broth",
      positive_control: null,
    };
    expect(ids(assayWarnings(mic))).toEqual(["MIC-INOC", "MIC-TEMP", "MIC-TIME", "MIC-MED", "MIC-CTRL"]);
    expect(assayWarnings(mic)[1]).toBe("MIC-TEMP: 30 °C is outside 35 ± 2 °C");
    // 37 °C and 24 h are inside the accepted ranges.
    expect(assayWarnings({ ...plan("MIC_MBC_ASSAY"), temperature_c: 37, incubation_hours: 24 })).toEqual([]);
  });

  it("ZONE-MED, ZONE-TEMP, ZONE-TIME", () => {
    const zone = {
      ...plan("ZONE_OF_INHIBITION"),
      medium: "blood agar",
      temperature_c: 30,
      incubation_hours: 24,
    };
    expect(ids(assayWarnings(zone))).toEqual(["ZONE-MED", "ZONE-TEMP", "ZONE-TIME"]);
  });

  it("IC50-N, IC50-REP, IC50-CTRL for viability and enzyme plans", () => {
    const viability = {
      ...plan("CELL_VIABILITY_IC50"),
      compound: { name: "X", concentrations_um: [10, 1, 0.1, 0.01] },
      replicates: { technical: 2, biological: 1 },
      positive_control: null,
    };
    expect(assayWarnings(viability)).toEqual([
      "IC50-N: 4 concentrations; fewer than 5 cannot define the curve and at least 8 are recommended",
      "IC50-N: steps of up to 10-fold; half-log or 2-3-fold spacing is recommended",
      "IC50-REP: 2 technical replicates; triplicates are recommended",
      "IC50-REP: one independent run; 2-3 independent runs are recommended for a reported IC50",
      "IC50-CTRL: no positive control stated; add a kill control (100 % effect) next to the vehicle (0 %) and blank wells",
    ]);
    const narrow = {
      ...plan("ENZYME_INHIBITION_IC50"),
      inhibitor: { name: "Y", concentrations_um: [64, 32, 16, 8, 4, 2, 1] },
      replicates: { technical: 3, biological: 2 },
      positive_control: "acetazolamide",
    };
    expect(assayWarnings(narrow)).toEqual([
      "IC50-N: 7 concentrations; at least 8 are recommended",
      "IC50-N: the doses span 1.81 log units; at least 3 are recommended so both plateaus are defined",
    ]);
  });

  it("the interpreter's own IC50 defaults pass the spacing and span rules", () => {
    const result = interpretIntake(validRequests.CELL_VIABILITY_IC50);
    if ("problems" in result) throw new Error("expected a plan");
    expect(ids(assayWarnings(result.plan))).toEqual(["IC50-REP", "IC50-CTRL"]);
  });

  it("QPCR-REF and QPCR-REP", () => {
    const qpcr = {
      ...plan("QPCR_EXPRESSION"),
      reference_genes: ["GAPDH"],
      replicates: { technical: 1, biological: 2 },
    };
    expect(assayWarnings(qpcr)).toEqual([
      "QPCR-REF: a single reference gene; at least 2 validated reference genes are recommended (MIQE)",
      "QPCR-REP: no technical replicates; triplicates are recommended",
      "QPCR-REP: 2 biological replicates; at least 3 are recommended",
    ]);
  });

  it("SANGER-STRANDS and SANGER-PRIMERS", () => {
    const sanger = {
      ...plan("SANGER_PLASMID_VERIFICATION"),
      primers: [{ name: "M13F", sequence: null }],
      expected_insert_size_bp: 1500,
    };
    expect(ids(assayWarnings(sanger))).toEqual(["SANGER-STRANDS", "SANGER-PRIMERS"]);
  });

  it("GROWTH-READ and GROWTH-REP", () => {
    const growth = {
      ...plan("MICROBIAL_GROWTH_MATRIX"),
      read_interval_minutes: 60,
      replicates: { technical: 2, biological: 1 },
    };
    expect(ids(assayWarnings(growth))).toEqual(["GROWTH-READ", "GROWTH-REP"]);
  });
});

describe("estimateCost", () => {
  it("is base + per sample x sample_count, to the cent, with the provider's turnaround", () => {
    expect(estimateCost(plan("MIC_MBC_ASSAY"), sll)).toEqual({
      estimated_cost_usd: 150 + 6 * 30,
      estimated_turnaround_days: { min: 5, max: 12 },
    });
  });

  it("has exactly two decimals with cent prices", () => {
    const cents: CloudLabProvider = { ...sll, pricing: { base_cost_usd: 0.1, per_sample_usd: 0.2 } };
    // 0.1 + 0.2 is 0.30000000000000004 in floating point; counting in cents avoids it.
    expect(estimateCost({ ...plan("MIC_MBC_ASSAY"), sample_count: 1 }, cents).estimated_cost_usd).toBe(0.3);
    const odd: CloudLabProvider = { ...sll, pricing: { base_cost_usd: 99.99, per_sample_usd: 7.35 } };
    expect(estimateCost({ ...plan("MIC_MBC_ASSAY"), sample_count: 31 }, odd).estimated_cost_usd).toBe(327.84);
  });

  it("grows with replicates, because sample_count counts them", () => {
    const single = interpretIntake(validRequests.MIC_MBC_ASSAY);
    const triple = interpretIntake({
      ...validRequests.MIC_MBC_ASSAY,
      replicates: { technical: 3, biological: 3 },
    });
    if ("problems" in single || "problems" in triple) throw new Error("expected plans");
    expect(triple.plan.sample_count).toBe(single.plan.sample_count * 3);
    expect(estimateCost(triple.plan, sll).estimated_cost_usd).toBeGreaterThan(
      estimateCost(single.plan, sll).estimated_cost_usd,
    );
  });
});
