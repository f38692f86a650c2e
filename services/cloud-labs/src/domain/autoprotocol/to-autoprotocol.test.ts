/**
 * Golden files: __golden__/<EXPERIMENT_TYPE>.json hold {document, notes} for each sample plan
 * (CUSTOM.error.json the refusal of the sample CUSTOM plan). The comparison is structural (parsed
 * JSON), so formatting the files with prettier changes nothing; any difference in content fails.
 * After an intended change, regenerate and format them with
 *   cd services/cloud-labs && UPDATE_GOLDEN=1 npx vitest run src/domain/autoprotocol \
 *     && npx prettier --write src/domain/autoprotocol/__golden__
 * and review the diff of __golden__/ like code.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import type {
  CustomPlan,
  EnzymePlan,
  GrowthPlan,
  LabPlan,
  MicPlan,
  QpcrPlan,
  ViabilityPlan,
} from "../plan.js";
import { SAMPLE_PLANS } from "../../../test/support/sample-plans.js";
import { checkAutoprotocol } from "./checker.js";
import { ProtocolNotExpressibleError, ProtocolTooLargeError } from "./errors.js";
import { schemaViolations } from "./schema.js";
import { MAX_AUTOPROTOCOL_INSTRUCTIONS, toAutoprotocol, translateToAutoprotocol } from "./to-autoprotocol.js";
import type { AutoprotocolDocument, Instruction } from "./types.js";

function expectGolden(name: string, actual: unknown): void {
  const path = fileURLToPath(new URL(`./__golden__/${name}.json`, import.meta.url));
  const normalized: unknown = JSON.parse(JSON.stringify(actual));
  if (process.env.UPDATE_GOLDEN === "1") {
    writeFileSync(path, `${JSON.stringify(normalized, null, 2)}\n`);
    return;
  }
  if (!existsSync(path)) throw new Error(`golden file ${name}.json is missing; run with UPDATE_GOLDEN=1`);
  expect(normalized).toStrictEqual(JSON.parse(readFileSync(path, "utf8")));
}

function sample<T extends LabPlan>(type: T["experiment_type"], change: (plan: T) => void = () => {}): T {
  const plan = structuredClone(SAMPLE_PLANS[type]) as T;
  change(plan);
  return plan;
}

function expectClean(document: AutoprotocolDocument): void {
  expect(schemaViolations(document)).toEqual([]);
  expect(checkAutoprotocol(document)).toEqual([]);
}

function notExpressible(plan: LabPlan): ProtocolNotExpressibleError {
  try {
    toAutoprotocol(plan);
  } catch (error) {
    if (error instanceof ProtocolNotExpressibleError) return error;
    throw error;
  }
  throw new Error("expected ProtocolNotExpressibleError");
}

const ops = (document: AutoprotocolDocument) => document.instructions.map((instruction) => instruction.op);
const find = <O extends Instruction["op"]>(document: AutoprotocolDocument, op: O) =>
  document.instructions.filter(
    (instruction): instruction is Extract<Instruction, { op: O }> => instruction.op === op,
  );

const expressibleCustom: CustomPlan = {
  ...(structuredClone(SAMPLE_PLANS.CUSTOM) as CustomPlan),
  title: "Overnight growth read at 600 nm",
  steps: [
    { action: "Read absorbance at 600 nm", duration_minutes: null, temperature_c: null },
    { action: "Incubate the plate", duration_minutes: 960, temperature_c: 37 },
    { action: "Measure OD600", duration_minutes: null, temperature_c: null },
  ],
};

describe("toAutoprotocol golden files", () => {
  it.each(EXPERIMENT_TYPES.filter((type) => type !== "CUSTOM"))("%s sample plan", (type) => {
    const result = translateToAutoprotocol(SAMPLE_PLANS[type]);
    expectClean(result.document);
    expectGolden(type, result);
  });

  it("CUSTOM sample plan (wash and stain steps) is refused, step by step", () => {
    const error = notExpressible(SAMPLE_PLANS.CUSTOM);
    expect(error.kind).toBe("validation_failed");
    expect(error.fieldErrors.map((e) => e.field)).toEqual([
      "steps[1].action",
      "steps[2].action",
      "steps[3].action",
    ]);
    expectGolden("CUSTOM.error", { message: error.message, errors: error.fieldErrors });
  });

  it("CUSTOM plan made of an incubation and reads", () => {
    const result = translateToAutoprotocol(expressibleCustom);
    expectClean(result.document);
    expect(ops(result.document)).toEqual(["absorbance", "cover", "incubate", "uncover", "absorbance"]);
    expectGolden("CUSTOM", result);
  });

  it("is deterministic", () => {
    for (const type of EXPERIMENT_TYPES.filter((t) => t !== "CUSTOM")) {
      expect(toAutoprotocol(SAMPLE_PLANS[type])).toEqual(toAutoprotocol(structuredClone(SAMPLE_PLANS[type])));
    }
  });
});

describe("MIC", () => {
  it("follows skeleton A: medium, 2-fold transfers with mixing, inoculum, t0 read, lid, warm_35, end read", () => {
    const document = toAutoprotocol(SAMPLE_PLANS.MIC_MBC_ASSAY);
    const tail = ops(document).slice(-5);
    expect(tail).toEqual(["absorbance", "cover", "incubate", "uncover", "absorbance"]);
    expect(find(document, "incubate")[0]).toMatchObject({ where: "warm_35", duration: "18:hour" });
    const [t0, end] = find(document, "absorbance");
    expect(t0).toMatchObject({ wavelength: "600:nanometer", dataref: "od600_t0" });
    expect(end?.dataref).toBe("od600_18h");
    // Row A: ten 2-fold wells, growth control in column 11, sterility control in column 12.
    const transfers = find(document, "liquid_handle").filter(
      (lh) => lh.locations[0]?.location === "mic_plate/0",
    );
    expect(transfers[0]?.locations[0]?.transports[0]?.volume).toBe("-50:microliter");
    expect(document.outs.mic_plate?.["10"]?.name).toMatch(/^growth control/);
    expect(document.outs.mic_plate?.["11"]?.name).toMatch(/^sterility control/);
    const sterilityTouched = find(document, "liquid_handle").some((lh) =>
      lh.locations.some((location) => location.location === "mic_plate/11"),
    );
    expect(sterilityTouched).toBe(false);
  });

  it("adds a positive-control series per organism only when one is named", () => {
    const withControl = toAutoprotocol(SAMPLE_PLANS.MIC_MBC_ASSAY);
    const without = toAutoprotocol(sample<MicPlan>("MIC_MBC_ASSAY", (p) => (p.positive_control = null)));
    expect(withControl.refs.positive_control_2x).toBeDefined();
    expect(without.refs.positive_control_2x).toBeUndefined();
    expectClean(without);
  });

  it("incubates at warm_37 for 37 °C and refuses 42 °C", () => {
    const warm = toAutoprotocol(sample<MicPlan>("MIC_MBC_ASSAY", (p) => (p.temperature_c = 37)));
    expect(find(warm, "incubate")[0]?.where).toBe("warm_37");
    const error = notExpressible(sample<MicPlan>("MIC_MBC_ASSAY", (p) => (p.temperature_c = 42)));
    expect(error.fieldErrors[0]?.field).toBe("temperature_c");
  });

  it("stores the plate and says so when an MBC is asked for", () => {
    const result = translateToAutoprotocol(sample<MicPlan>("MIC_MBC_ASSAY", (p) => (p.determine_mbc = true)));
    expect(result.document.refs.mic_plate).toEqual({ new: "96-flat", store: { where: "cold_4" } });
    expect(result.notes.some((note) => note.startsWith("MBC"))).toBe(true);
  });

  it("refuses a layout larger than one plate with a typed error", () => {
    const big = sample<MicPlan>("MIC_MBC_ASSAY", (p) => {
      p.replicates = { technical: 3, biological: 3 };
    });
    expect(() => toAutoprotocol(big)).toThrow(ProtocolTooLargeError);
    try {
      toAutoprotocol(big);
    } catch (error) {
      expect((error as ProtocolTooLargeError).fieldErrors[0]).toMatchObject({
        code: "exceeds_plate_capacity",
      });
    }
  });

  it("fits the same layout on a 384-well plate with 25 + 25 µL wells", () => {
    const document = toAutoprotocol(
      sample<MicPlan>("MIC_MBC_ASSAY", (p) => {
        p.plate_format = "384-well";
        p.replicates = { technical: 3, biological: 3 };
      }),
    );
    expect(document.refs.mic_plate).toMatchObject({ new: "384-flat" });
    expectClean(document);
  });
});

describe("other types", () => {
  it("viability: edge moat, 24 h seeding, 72 h exposure at warm_37 with 5% CO2, CellTiter-Glo, luminescence", () => {
    const document = toAutoprotocol(SAMPLE_PLANS.CELL_VIABILITY_IC50);
    expect(document.refs.cell_plate).toMatchObject({ new: "96-flat-white-dc" });
    const incubations = find(document, "incubate");
    expect(incubations.slice(0, 2).map((i) => [i.where, i.duration, i.co2_percent])).toEqual([
      ["warm_37", "24:hour", 5],
      ["warm_37", "72:hour", 5],
    ]);
    expect(find(document, "provision")[0]?.resource_id).toBe("petri-resource:celltiter-glo-reagent");
    const reads = find(document, "luminescence");
    expect(reads).toHaveLength(1);
    // 10 doses + vehicle + kill + blank, in triplicate; none of them on the edge.
    expect(reads[0]?.wells).toHaveLength(39);
    expect(reads[0]?.wells).not.toContain("0");
    expect(document.outs.cell_plate?.["0"]?.name).toMatch(/edge moat/);
  });

  it("viability: refuses readouts without a sourced protocol", () => {
    const error = notExpressible(sample<ViabilityPlan>("CELL_VIABILITY_IC50", (p) => (p.assay_type = "MTT")));
    expect(error.fieldErrors[0]?.field).toBe("assay_type");
  });

  it("enzyme: pre-incubation, substrate from a column dispenser, kinetic absorbance at the plan's wavelength", () => {
    const document = toAutoprotocol(SAMPLE_PLANS.ENZYME_INHIBITION_IC50);
    const [kinetic] = find(document, "spectrophotometry");
    expect(kinetic).toMatchObject({ interval: "1:minute", num_intervals: 31, temperature: "25:celsius" });
    expect(kinetic?.groups[0]).toMatchObject({
      mode: "absorbance",
      mode_params: { wavelength: ["412:nanometer"] },
    });
    const order = ops(document);
    expect(order.indexOf("incubate")).toBeLessThan(order.indexOf("dispense"));
    expect(order.indexOf("dispense")).toBeLessThan(order.indexOf("spectrophotometry"));
  });

  it("enzyme: luminescent assays read at the end; fluorometric ones are refused", () => {
    const luminescent = toAutoprotocol(
      sample<EnzymePlan>("ENZYME_INHIBITION_IC50", (p) => (p.assay_type = "LUMINESCENT")),
    );
    expect(luminescent.refs.assay_plate).toMatchObject({ new: "96-flat-white-dc" });
    expect(find(luminescent, "luminescence")).toHaveLength(1);
    expectClean(luminescent);
    const error = notExpressible(
      sample<EnzymePlan>("ENZYME_INHIBITION_IC50", (p) => (p.assay_type = "FLUOROMETRIC")),
    );
    expect(error.fieldErrors[0]?.field).toBe("assay_type");
  });

  it("qPCR: NTC per primer pair, ultra-clear seal, spin, SYBR dyes on every reaction and a melt curve", () => {
    const document = toAutoprotocol(SAMPLE_PLANS.QPCR_EXPRESSION);
    const [cycle] = find(document, "thermocycle");
    // 3 genes x (6 samples + NTC) x 3 technical replicates.
    expect(cycle?.dyes?.SYBR).toHaveLength(63);
    expect(cycle?.melting).toBeDefined();
    expect(cycle?.groups[1]).toMatchObject({ cycles: 40 });
    expect(ops(document).slice(-3)).toEqual(["seal", "spin", "thermocycle"]);
    expect(find(document, "seal")[0]?.type).toBe("ultra-clear");
    const ntcs = Object.values(document.outs.qpcr_plate ?? {}).filter((well) => well.name.includes("NTC"));
    expect(ntcs).toHaveLength(9);
  });

  it("qPCR: TaqMan reads FAM without a melt curve; OTHER chemistry is refused", () => {
    const result = translateToAutoprotocol(
      sample<QpcrPlan>("QPCR_EXPRESSION", (p) => (p.chemistry = "TAQMAN")),
    );
    const [cycle] = find(result.document, "thermocycle");
    expect(Object.keys(cycle?.dyes ?? {})).toEqual(["FAM"]);
    expect(cycle?.melting).toBeUndefined();
    expect(result.notes.join(" ")).toMatch(/FAM/);
    expectClean(result.document);
    expect(
      notExpressible(sample<QpcrPlan>("QPCR_EXPRESSION", (p) => (p.chemistry = "OTHER"))).fieldErrors[0]
        ?.field,
    ).toBe("chemistry");
  });

  it("Sanger: sealed cycle-sequencing plate kept cold, with a note that sequencing runs on the lab's instrument", () => {
    const result = translateToAutoprotocol(SAMPLE_PLANS.SANGER_PLASMID_VERIFICATION);
    expect(ops(result.document).slice(-2)).toEqual(["seal", "thermocycle"]);
    expect(result.document.refs.sequencing_plate).toEqual({ new: "96-pcr", store: { where: "cold_4" } });
    expect(result.notes.join(" ")).toMatch(/capillary instrument/);
  });

  it("growth: conditions x replicates + blanks, sealed, one kinetic run with shaking between reads", () => {
    const document = toAutoprotocol(SAMPLE_PLANS.MICROBIAL_GROWTH_MATRIX);
    const [kinetic] = find(document, "spectrophotometry");
    expect(kinetic).toMatchObject({ interval: "15:minute", num_intervals: 97, temperature: "37:celsius" });
    expect(kinetic?.groups.map((group) => group.mode)).toEqual(["absorbance", "shake"]);
    const firstGroup = kinetic?.groups[0];
    expect(firstGroup?.mode === "absorbance" && firstGroup.mode_params.wells).toHaveLength(8);
    const anaerobic = sample<GrowthPlan>("MICROBIAL_GROWTH_MATRIX", (p) => (p.aeration = "anaerobic"));
    expect(notExpressible(anaerobic).fieldErrors[0]?.field).toBe("aeration");
  });

  it("zone: spread lawn, lid, incubation, top image, and the manual disk step in the notes", () => {
    const result = translateToAutoprotocol(SAMPLE_PLANS.ZONE_OF_INHIBITION);
    expect(ops(result.document)).toEqual(["spread", "cover", "incubate", "uncover", "image_plate"]);
    expect(result.notes.join(" ")).toMatch(/Manual step/);
    expect(result.document.outs.agar_plate?.["0"]?.name).toMatch(/12 disks/);
  });
});

describe("size bound", () => {
  const heavy: LabPlan[] = [
    // 128 one-point series of 3 wells fill a 384-well plate.
    sample<MicPlan>("MIC_MBC_ASSAY", (p) => {
      p.plate_format = "384-well";
      p.positive_control = null;
      p.organisms = Array.from({ length: 8 }, (_, i) => ({ name: `Organism ${i}`, strain: null }));
      p.compounds = [{ name: "drug", concentrations_ug_ml: [8] }];
      p.replicates = { technical: 4, biological: 4 };
    }),
    sample<ViabilityPlan>("CELL_VIABILITY_IC50", (p) => {
      p.plate_format = "384-well";
      p.compound.concentrations_um = Array.from({ length: 24 }, (_, i) => 100 / 2 ** i);
      p.replicates = { technical: 5, biological: 2 };
    }),
    sample<QpcrPlan>("QPCR_EXPRESSION", (p) => {
      p.plate_format = "384-well";
      p.samples = Array.from({ length: 47 }, (_, i) => `s${i}`);
      p.targets = ["IL6", "TNF", "IL1B", "CXCL8", "CCL2", "IL10"];
      p.reference_genes = ["GAPDH", "ACTB"];
      p.replicates = { technical: 1, biological: 1 };
    }),
  ];

  it.each(heavy.map((plan) => [plan.experiment_type, plan] as const))(
    "a %s plan that fills a 384-well plate stays within the bound and checks clean",
    (_, plan) => {
      const document = toAutoprotocol(plan);
      expect(document.instructions.length).toBeLessThanOrEqual(MAX_AUTOPROTOCOL_INSTRUCTIONS);
      expect(document.instructions.length).toBeGreaterThan(300);
      expectClean(document);
    },
  );
});
