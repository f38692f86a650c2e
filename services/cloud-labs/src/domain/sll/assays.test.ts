/** What each assay's protocol must hold: the controls of the assay rules, volumes, conditions. */
import { describe, expect, it } from "vitest";
import type {
  CustomPlan,
  EnzymePlan,
  GrowthPlan,
  MicPlan,
  QpcrPlan,
  SangerPlan,
  ViabilityPlan,
  ZonePlan,
} from "../plan.js";
import { SAMPLE_PLANS } from "../../../test/support/sample-plans.js";
import { MAX_GROWTH_READS } from "./builders/growth.js";
import { SllNotExpressibleError } from "./errors.js";
import { GEOMETRY, outerWells } from "./layout.js";
import { simulate, type WellState } from "../../../test/support/sll/simulate.js";
import { variant } from "../../../test/support/sll/plan-variants.js";
import { commentLiteral, tokenize } from "../../../test/support/sll/wl-reader.js";
import { toSll } from "./to-sll.js";
import type { SllProtocol, SllStep, SllWell } from "./types.js";

const steps = (protocol: SllProtocol, operation: SllStep["operation"]) =>
  protocol.steps.filter((step) => step.operation === operation);
const withComment = (protocol: SllProtocol, fragment: string) =>
  protocol.steps.filter((step) => step.comment?.includes(fragment));
const wellsOf = (step: SllStep | undefined, key = "Destination") =>
  ([] as SllWell[]).concat((step?.[key] as SllWell | SllWell[] | undefined) ?? []);
const keyOf = (well: SllWell) => `${well.label}|${well.well}`;
const filled = (wells: Map<string, WellState>) => [...wells.entries()].filter(([, s]) => s.volume > 0);

describe("MIC", () => {
  const plan = SAMPLE_PLANS.MIC_MBC_ASSAY as MicPlan;
  const protocol = toSll(plan);
  const wells = simulate(protocol);
  const sterility = wellsOf(withComment(protocol, "sterility controls")[0]).map(keyOf);
  const growth = wellsOf(withComment(protocol, "growth controls")[0]).map(keyOf);

  it("has a growth and a sterility control for every series, and a QC series for the reference drug", () => {
    const series = plan.replicates.technical * plan.compounds.length + 1;
    expect(steps(protocol, "SerialDilute")).toHaveLength(series);
    expect(growth).toHaveLength(series);
    expect(sterility).toHaveLength(series);
    expect(protocol.steps.some((s) => s.Label === "reference drug stock")).toBe(true);
    const withoutQc = toSll(variant<MicPlan>(plan, (p) => (p.positive_control = null)));
    expect(steps(withoutQc, "SerialDilute")).toHaveLength(series - 1);
  });

  it("never inoculates the sterility wells and never puts drug in the growth wells", () => {
    for (const key of sterility) expect([...wells.get(key)!.sources]).toEqual(["medium"]);
    for (const key of growth)
      expect([...wells.get(key)!.sources].sort()).toEqual(["medium", "organism 1 inoculum 1"]);
  });

  it("ends every well at 100 uL with the series two-fold and the drug diluted 1:1 by the inoculum", () => {
    for (const [key, state] of filled(wells)) expect(state.volume, key).toBeCloseTo(100, 0);
    const seriesA = Array.from({ length: 10 }, (_, i) => wells.get(`plate 1|A${i + 1}`)!);
    seriesA.forEach((state, i) => expect(state.relative).toBeCloseTo(1 / 2 ** i, 12));
    const stock = steps(protocol, "Transfer").find((s) => s.Source === "compound 1 stock")!;
    expect(stock.Amount).toEqual({ value: 99.9, unit: "Microliter" });
  });

  it("incubates as planned and reads OD600 before and after", () => {
    expect(steps(protocol, "IncubateCells")[0]).toMatchObject({
      Temperature: { value: 35, unit: "Celsius" },
      Time: { value: 18, unit: "Hour" },
    });
    const reads = steps(protocol, "AbsorbanceIntensity");
    expect(reads).toHaveLength(2);
    for (const read of reads) expect(read.Wavelength).toEqual({ value: 600, unit: "Nanometer" });
    const order = protocol.steps.map((s) => s.operation);
    expect(order.indexOf("Cover")).toBeLessThan(order.indexOf("IncubateCells"));
    expect(order.lastIndexOf("Uncover")).toBeLessThan(order.lastIndexOf("AbsorbanceIntensity"));
  });

  it("uses more plates rather than overfilling one, and notes the MBC follow-up", () => {
    const big = toSll(
      variant<MicPlan>(plan, (p) => {
        p.replicates.technical = 6;
        p.organisms.push({ name: "Klebsiella pneumoniae", strain: null });
        p.determine_mbc = true;
      }),
    );
    expect(steps(big, "LabelContainer").map((s) => s.Label)).toEqual(["plate 1", "plate 2"]);
    expect(big.notes.join(" ")).toMatch(/MBC/);
  });

  it("refuses a series that does not decrease, naming the field", () => {
    const bad = variant<MicPlan>(plan, (p) => (p.compounds[0]!.concentrations_ug_ml = [1, 2, 4]));
    expect(() => toSll(bad)).toThrow(SllNotExpressibleError);
    expect(() => toSll(bad)).toThrow(expect.objectContaining({ field: "compounds[0].concentrations_ug_ml" }));
  });
});

describe("cell viability IC50", () => {
  const plan = SAMPLE_PLANS.CELL_VIABILITY_IC50 as ViabilityPlan;
  const protocol = toSll(plan);
  const wells = simulate(protocol);
  const onCellPlate = (key: string) => key.startsWith("cell plate");

  it("keeps the outer ring as a medium-only moat", () => {
    for (const well of outerWells(GEOMETRY["96-well"])) {
      expect([...wells.get(`cell plate 1|${well}`)!.sources]).toEqual(["medium"]);
    }
  });

  it("has vehicle, kill and no-cell blank wells in every replicate block", () => {
    const cellPlate = filled(wells).filter(([k]) => onCellPlate(k));
    const kinds = (source: string) => cellPlate.filter(([, s]) => s.sources.has(source));
    const blanks = cellPlate.filter(([, s]) => !s.sources.has("cells") && s.sources.has("vehicle medium"));
    expect(kinds("positive control")).toHaveLength(plan.replicates.technical);
    expect(blanks).toHaveLength(plan.replicates.technical);
    const vehicle = kinds("vehicle medium").filter(
      ([, s]) => s.sources.has("cells") && !s.sources.has("compound stock"),
    );
    expect(vehicle).toHaveLength(plan.replicates.technical);
    for (const [, state] of kinds("compound stock")) expect(state.sources.has("cells")).toBe(true);
    expect(kinds("compound stock")).toHaveLength(
      plan.replicates.technical * plan.compound.concentrations_um.length,
    );
  });

  it("doses 10 uL of a 10x series into 90 uL and reads CellTiter-Glo by luminescence", () => {
    const dilution = Array.from({ length: 10 }, (_, i) => wells.get(`dilution plate|A${i + 1}`)!);
    const expected = plan.compound.concentrations_um.map((c) => c / plan.compound.concentrations_um[0]!);
    dilution.forEach((state, i) => expect(state.relative! / expected[i]!).toBeCloseTo(1, 5));
    for (const state of dilution) expect(state.volume).toBeGreaterThanOrEqual(20 - 0.5);
    for (const [key, state] of filled(wells).filter(([k]) => onCellPlate(k))) {
      expect(state.volume, key).toBeCloseTo(
        outerWells(GEOMETRY["96-well"]).some((w) => key.endsWith(`|${w}`)) ? 100 : 200,
        5,
      );
    }
    expect(steps(protocol, "IncubateCells").map((s) => s.CarbonDioxide)).toEqual([
      { value: 5, unit: "Percent" },
      { value: 5, unit: "Percent" },
    ]);
    expect(steps(protocol, "IncubateCells")[1]!.Time).toEqual({ value: 72, unit: "Hour" });
    expect(protocol.steps.at(-1)).toMatchObject({
      operation: "LuminescenceIntensity",
      IntegrationTime: { value: 1, unit: "Second" },
    });
    expect(protocol.text).toContain('Model[Container, Plate, "96-well white flat-bottom plate"]');
  });

  it("refuses a series the dilution plate cannot hold", () => {
    const tight = variant<ViabilityPlan>(plan, (p) => {
      p.replicates = { technical: 6, biological: 6 };
      p.compound.concentrations_um = Array.from({ length: 10 }, (_, i) => 10 / 1.05 ** i);
    });
    expect(() => toSll(tight)).toThrow(expect.objectContaining({ field: "compound.concentrations_um" }));
  });
});

describe("enzyme inhibition IC50", () => {
  const plan = SAMPLE_PLANS.ENZYME_INHIBITION_IC50 as EnzymePlan;

  it("has no-inhibitor controls and no-enzyme blanks; every well ends at 100 uL with substrate", () => {
    const protocol = toSll(plan);
    const assay = filled(simulate(protocol)).filter(([k]) => k.startsWith("assay plate"));
    const blanks = assay.filter(([, s]) => !s.sources.has("enzyme"));
    expect(blanks).toHaveLength(plan.replicates.technical);
    for (const [, s] of blanks) expect([...s.sources].sort()).toEqual(["assay buffer", "substrate"]);
    const noInhibitor = assay.filter(([, s]) => s.sources.has("enzyme") && !s.sources.has("inhibitor stock"));
    expect(noInhibitor).toHaveLength(plan.replicates.technical);
    for (const [key, s] of assay) {
      expect(s.volume, key).toBeCloseTo(100, 5);
      expect(s.sources.has("substrate")).toBe(true);
    }
    expect(steps(protocol, "Incubate")[0]).toMatchObject({
      Time: { value: 30, unit: "Minute" },
      Temperature: { value: 25, unit: "Celsius" },
    });
    expect(steps(protocol, "AbsorbanceIntensity")[0]!.Wavelength).toEqual({ value: 412, unit: "Nanometer" });
  });

  it("adds reference-inhibitor wells when the plan names one", () => {
    const protocol = toSll(variant<EnzymePlan>(plan, (p) => (p.positive_control = "donepezil")));
    const positives = filled(simulate(protocol)).filter(([, s]) => s.sources.has("positive control"));
    expect(positives).toHaveLength(plan.replicates.technical);
  });
});

describe("qPCR", () => {
  const plan = SAMPLE_PLANS.QPCR_EXPRESSION as QpcrPlan;
  const call = toSll(plan).steps[0]!;

  it("runs every sample, a no-RT control of each and a no-template control, each with every primer pair", () => {
    const samples = call.Samples as unknown as { name: string }[];
    expect(samples.map((s) => s.name)).toEqual([
      ...plan.samples,
      ...plan.samples.map((s) => `${s} no-RT`),
      "Milli-Q water",
    ]);
    const genes = [...plan.targets, ...plan.reference_genes];
    for (const pairs of call.PrimerPairs as unknown as { name: string }[][][]) {
      expect(pairs.map(([forward, reverse]) => [forward!.name, reverse!.name])).toEqual(
        genes.map((g) => [`${g} forward primer`, `${g} reverse primer`]),
      );
    }
  });

  it("takes volume, cycles and replicates from the plan; a melting curve only for SYBR", () => {
    expect(call).toMatchObject({
      operation: "ExperimentqPCR",
      ReactionVolume: { value: 20, unit: "Microliter" },
      NumberOfCycles: 40,
      NumberOfReplicates: 3,
      MeltingCurve: true,
    });
    const taqman = toSll(variant<QpcrPlan>(plan, (p) => (p.chemistry = "TAQMAN")));
    expect(taqman.steps[0]!.MeltingCurve).toBe(false);
    expect(taqman.notes.join(" ")).toMatch(/probe/);
  });
});

describe("Sanger", () => {
  it("sets up one reaction per template x primer x replicate, each with exactly one of each", () => {
    const plan = variant<SangerPlan>(
      SAMPLE_PLANS.SANGER_PLASMID_VERIFICATION,
      (p) => (p.replicates.technical = 2),
    );
    const protocol = toSll(plan);
    const reactions = filled(simulate(protocol));
    expect(reactions).toHaveLength(plan.templates * plan.primers.length * 2);
    for (const [, s] of reactions) {
      expect([...s.sources].filter((x) => x.startsWith("template"))).toHaveLength(1);
      expect([...s.sources].filter((x) => x.startsWith("primer"))).toHaveLength(1);
      expect(s.volume).toBe(15);
    }
    expect(protocol.notes.join(" ")).toMatch(/capillary/);
  });
});

describe("growth matrix", () => {
  const plan = SAMPLE_PLANS.MICROBIAL_GROWTH_MATRIX as GrowthPlan;

  it("leaves one blank per condition uninoculated and reads at t0 and every interval", () => {
    const protocol = toSll(plan);
    const wells = filled(simulate(protocol));
    const blanks = wells.filter(([, s]) => ![...s.sources].some((x) => x.startsWith("inoculum")));
    expect(blanks).toHaveLength(plan.conditions.length);
    expect(wells).toHaveLength(plan.conditions.length * (plan.replicates.technical + 1));
    expect(steps(protocol, "AbsorbanceIntensity")).toHaveLength(
      (plan.duration_hours * 60) / plan.read_interval_minutes + 1,
    );
    const incubations = steps(protocol, "IncubateCells");
    expect(incubations.reduce((sum, s) => sum + (s.Time as { value: number }).value, 0)).toBe(
      plan.duration_hours * 60,
    );
  });

  it("covers the whole duration when the interval does not divide it", () => {
    const protocol = toSll(
      variant<GrowthPlan>(plan, (p) => {
        p.duration_hours = 1;
        p.read_interval_minutes = 25;
      }),
    );
    expect(steps(protocol, "IncubateCells").map((s) => (s.Time as { value: number }).value)).toEqual([
      25, 25, 10,
    ]);
  });

  it("refuses a schedule longer than MAX_GROWTH_READS reads", () => {
    const tooMany = variant<GrowthPlan>(plan, (p) => {
      p.duration_hours = 200;
      p.read_interval_minutes = 5;
    });
    expect(() => toSll(tooMany)).toThrow(expect.objectContaining({ field: "read_interval_minutes" }));
    const atLimit = variant<GrowthPlan>(plan, (p) => {
      p.duration_hours = (MAX_GROWTH_READS * 5) / 60;
      p.read_interval_minutes = 5;
    });
    expect(steps(toSll(atLimit), "AbsorbanceIntensity")).toHaveLength(MAX_GROWTH_READS + 1);
  });
});

describe("zone of inhibition", () => {
  it("labels one agar plate per organism x culture x agent x replicate and incubates them as planned", () => {
    const plan = SAMPLE_PLANS.ZONE_OF_INHIBITION as ZonePlan;
    const protocol = toSll(plan);
    expect(steps(protocol, "LabelContainer")).toHaveLength(plan.replicates.technical * plan.agents.length);
    expect(steps(protocol, "IncubateCells")[0]).toMatchObject({
      Temperature: { value: 35, unit: "Celsius" },
      Time: { value: 18, unit: "Hour" },
    });
    expect(protocol.steps.some((s) => s.Label === "reference agent")).toBe(true);
    expect(protocol.notes.join(" ")).toMatch(/zone diameter/);
  });
});

describe("custom", () => {
  it("carries every action, in order (a trailing one as a note), and incubates only the steps with numbers", () => {
    const plan = variant<CustomPlan>(SAMPLE_PLANS.CUSTOM, (p) => {
      p.detection_method = "imaging";
      p.steps.push({ action: 'Photograph *) the "plate"', duration_minutes: null, temperature_c: null });
    });
    const protocol = toSll(plan);
    const comments = tokenize(
      protocol.text.slice(protocol.text.indexOf("ExperimentManualSamplePreparation[")),
    )
      .filter((t) => t.kind === "comment")
      .map((t) => (t.kind === "comment" ? commentLiteral(t.text) : ""))
      .join(" / ");
    let from = 0;
    plan.steps.slice(0, -1).forEach((step, i) => {
      const at = comments.indexOf(`step ${i + 1}: ${step.action}`, from);
      expect(at, step.action).toBeGreaterThanOrEqual(from);
      from = at;
    });
    expect(steps(protocol, "Incubate")).toHaveLength(
      plan.steps.filter((s) => s.duration_minutes !== null || s.temperature_c !== null).length,
    );
    expect(protocol.notes.at(-1)).toBe('step 5: Photograph *) the "plate"');
    const header = tokenize(protocol.text).filter((t) => t.kind === "comment");
    expect(header.some((t) => t.kind === "comment" && commentLiteral(t.text) === protocol.notes.at(-1))).toBe(
      true,
    );
  });
});

describe("determinism", () => {
  it("gives the same protocol for the same plan, and does not change the plan", () => {
    for (const plan of Object.values(SAMPLE_PLANS)) {
      const copy = structuredClone(plan);
      expect(toSll(copy)).toEqual(toSll(plan));
      expect(copy).toEqual(plan);
    }
  });
});
