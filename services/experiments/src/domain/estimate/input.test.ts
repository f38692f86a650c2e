import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { TEMPLATES } from "../templates/index.js";
import {
  DEFAULT_ESTIMATE_INPUT,
  estimateExperiment,
  estimateInputFrom,
  parsePackageLevel,
  toCount,
} from "./index.js";

const work = (body: unknown) => estimateInputFrom(body).work;

describe("estimateInputFrom: common fields", () => {
  it("gives the defaults for an empty or non-object body", () => {
    for (const body of [
      {},
      null,
      undefined,
      42,
      "MIC_MBC_ASSAY",
      [],
      [{ experiment_type: "QPCR_EXPRESSION" }],
    ]) {
      expect(estimateInputFrom(body)).toEqual({ ...DEFAULT_ESTIMATE_INPUT, work: {} });
    }
    expect(DEFAULT_ESTIMATE_INPUT).toMatchObject({
      technical_replicates: 3,
      biological_replicates: 1,
      package_level: "L1_BASIC_QC",
      priority: "standard",
      privacy: "open",
    });
  });

  it("reads experiment_type case-insensitively and drops unknown types", () => {
    expect(estimateInputFrom({ experiment_type: " mic_mbc_assay " }).experiment_type).toBe("MIC_MBC_ASSAY");
    expect(estimateInputFrom({ experiment_type: "WESTERN_BLOT" }).experiment_type).toBeNull();
  });

  it("reads the priority in either spelling, the intake model's first", () => {
    expect(estimateInputFrom({ turnaround_budget: { priority: "expedited" } }).priority).toBe("expedited");
    expect(estimateInputFrom({ turnaround_priority: "URGENT" }).priority).toBe("urgent");
    expect(estimateInputFrom({ constraints: { turnaround_priority: "expedited" } }).priority).toBe(
      "expedited",
    );
    expect(
      estimateInputFrom({ turnaround_budget: { priority: "urgent" }, turnaround_priority: "expedited" })
        .priority,
    ).toBe("urgent");
    expect(
      estimateInputFrom({ turnaround_budget: { priority: "asap" }, turnaround_priority: "expedited" })
        .priority,
    ).toBe("expedited");
  });

  it("reads replicates under either name, at the top level or under protocol", () => {
    expect(estimateInputFrom({ replicates: { technical: 4, biological: 2 } })).toMatchObject({
      technical_replicates: 4,
      biological_replicates: 2,
    });
    expect(
      estimateInputFrom({ replicates: { technical_replicates: 5, biological_replicates: 3 } }),
    ).toMatchObject({ technical_replicates: 5, biological_replicates: 3 });
    expect(
      estimateInputFrom({ protocol: { replicates: { technical_replicates: 6, biological_replicates: 2 } } }),
    ).toMatchObject({ technical_replicates: 6, biological_replicates: 2 });
    expect(estimateInputFrom({ replicates: { technical: "4" } }).technical_replicates).toBe(4);
    expect(estimateInputFrom({ replicates: { technical: 0, biological: -1 } })).toMatchObject({
      technical_replicates: 3,
      biological_replicates: 1,
    });
    expect(estimateInputFrom({ replicates: { technical: 1e9 } }).technical_replicates).toBe(100);
  });

  it("reads privacy and the package level", () => {
    expect(estimateInputFrom({ privacy: "Private" }).privacy).toBe("private");
    expect(estimateInputFrom({ privacy: "secret" }).privacy).toBe("open");
    expect(
      estimateInputFrom({ deliverables: { minimum_package_level: "L2_INTERPRETATION" } }).package_level,
    ).toBe("L2_INTERPRETATION");
    expect(parsePackageLevel("l0")).toBe("L0_RAW_ONLY");
    expect(parsePackageLevel("L3")).toBeUndefined();
  });

  it("reads the template id and takes its type when none is given", () => {
    const body = { protocol: { type: "standard_template", template_id: "qpcr-sybr-relative-expression-v1" } };
    expect(estimateInputFrom(body)).toMatchObject({
      template_id: "qpcr-sybr-relative-expression-v1",
      experiment_type: "QPCR_EXPRESSION",
    });
    expect(estimateInputFrom({ protocol: { template_id: "made-up-v1" } }).template_id).toBeNull();
    expect(estimateInputFrom({ template_id: "mic-broth-microdilution-v1" }).experiment_type).toBe(
      "MIC_MBC_ASSAY",
    );
  });

  it("infers the type from the one type section present", () => {
    expect(estimateInputFrom({ qpcr: { number_of_samples: 4 } }).experiment_type).toBe("QPCR_EXPRESSION");
    expect(estimateInputFrom({ mic_mbc_assay: {} }).experiment_type).toBe("MIC_MBC_ASSAY");
    expect(estimateInputFrom({ qpcr: {}, sanger: {} }).experiment_type).toBeNull();
  });
});

describe("estimateInputFrom: type sections", () => {
  it("Sanger: primers are reads per template", () => {
    expect(
      work({ experiment_type: "SANGER_PLASMID_VERIFICATION", sanger: { primers: [{}, {}, {}] } }),
    ).toEqual({
      reads_per_sample: 3,
    });
    expect(
      work({
        protocol: {
          template_id: "sanger-plasmid-verification-v1",
          template_parameters: { read_direction: "forward" },
        },
      }),
    ).toEqual({ reads_per_sample: 1 });
  });

  it("qPCR: samples, targets and housekeeping genes", () => {
    const body = {
      experiment_type: "QPCR_EXPRESSION",
      qpcr: {
        number_of_samples: 8,
        targets: [{ gene_symbol: "IL6" }, { gene_symbol: "TNF" }],
        housekeeping_genes: ["GAPDH"],
      },
    };
    expect(work(body)).toEqual({ samples: 8, targets: 2, reference_genes: 1 });
  });

  it("cell viability: dose points from the dose range", () => {
    expect(
      work({
        experiment_type: "CELL_VIABILITY_IC50",
        cell_viability: { dose_range: { min: 0.01, max: 100, points: 8 } },
      }),
    ).toEqual({ dose_points: 8 });
  });

  it("enzyme inhibition: inhibitor concentrations", () => {
    expect(
      work({
        experiment_type: "ENZYME_INHIBITION_IC50",
        enzyme_inhibition: { inhibitor_concentrations: [1, 2, 3, 4, 5, 6] },
      }),
    ).toEqual({ dose_points: 6 });
  });

  it("growth matrix: conditions are the product of each variable's values", () => {
    const matrix = [
      { variable: "temperature", values: [{ value: 30 }, { value: 37 }] },
      { variable: "NaCl", values: [{ value: 0 }, { value: 1 }, { value: 2 }] },
      { variable: "broken" },
    ];
    expect(
      work({ experiment_type: "MICROBIAL_GROWTH_MATRIX", microbial_growth: { condition_matrix: matrix } }),
    ).toEqual({ conditions: 6 });
  });

  it("MIC: a two-fold range gives its number of concentrations; the cloud-lab form counts organisms and compounds", () => {
    expect(
      work({
        experiment_type: "MIC_MBC_ASSAY",
        mic_mbc: { concentration_range: { min: 0.25, max: 64, dilution_series: "2-fold" } },
      }),
    ).toEqual({ dose_points: 9 });
    expect(
      work({ experiment_type: "MIC_MBC_ASSAY", mic_mbc: { concentration_range: { min: 64, max: 1 } } }),
    ).toEqual({});
    expect(
      work({
        experiment_type: "MIC_MBC_ASSAY",
        mic_mbc_assay: {
          target_organisms: ["E. coli", "S. aureus"],
          test_compounds: [
            { name: "a", concentrations_ug_ml: [1, 2, 4, 8] },
            { name: "b", concentrations_ug_ml: [1, 2, 4, 8, 16, 32] },
          ],
        },
      }),
    ).toEqual({ organisms: 2, compounds: 2, dose_points: 6 });
  });

  it("zone of inhibition: disk loadings", () => {
    expect(
      work({
        experiment_type: "ZONE_OF_INHIBITION",
        zone_of_inhibition: { disk_loading: [{ amount: 5 }, { amount: 10 }] },
      }),
    ).toEqual({ dose_points: 2 });
  });

  it("template parameters fill what the section does not state", () => {
    const body = {
      protocol: {
        template_id: "mic-broth-microdilution-v1",
        template_parameters: { number_of_concentrations: 12 },
      },
    };
    expect(work(body)).toEqual({ dose_points: 12 });
    const both = { ...body, mic_mbc: { concentration_range: { min: 1, max: 8 } } };
    expect(work(both)).toEqual({ dose_points: 4 });
  });
});

describe("estimateInputFrom + estimateExperiment on partial and hostile bodies", () => {
  const ctx = { operatorsAbleToTakeIt: 3 };

  it("prices a realistic partial body", () => {
    const e = estimateExperiment(
      estimateInputFrom({
        experiment_type: "MIC_MBC_ASSAY",
        privacy: "delayed_6mo",
        turnaround_budget: { priority: "expedited" },
        mic_mbc_assay: {
          target_organisms: ["E. coli"],
          test_compounds: [{ name: "x", concentrations_ug_ml: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512] }],
        },
      }),
      ctx,
    );
    // Reference MIC (300.00) x 1.2 (expedited) x 1.1 (delayed_6mo).
    expect(e.estimated_cost_usd.typical).toBeCloseTo(396, 1);
    expect(e.operator_availability).toBe("medium");
  });

  it("survives throwing getters and proxies", () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error("boom");
        },
        has() {
          throw new Error("boom");
        },
        getOwnPropertyDescriptor() {
          throw new Error("boom");
        },
      },
    );
    const getter = Object.defineProperty({}, "experiment_type", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    for (const body of [trap, getter, { protocol: trap }, { replicates: getter }]) {
      expect(() => estimateExperiment(estimateInputFrom(body), ctx)).not.toThrow();
    }
  });

  it("never throws on anything, and always gives a well-formed estimate", () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true, maxDepth: 4 }), (raw) => {
        const e = estimateExperiment(estimateInputFrom(raw), ctx);
        expect(e.estimated_cost_usd.low).toBeLessThanOrEqual(e.estimated_cost_usd.typical);
        expect(e.estimated_cost_usd.typical).toBeLessThanOrEqual(e.estimated_cost_usd.high);
      }),
      { numRuns: 500 },
    );
  });

  it("handles random partial request bodies built from real and broken fragments", () => {
    const junk = fc.oneof(
      fc.constant(null),
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.array(fc.anything(), { maxLength: 3 }),
    );
    const count = fc.oneof(
      fc.integer({ min: -3, max: 100_000 }),
      fc.double(),
      fc.string(),
      fc.constant(null),
    );
    const list = fc.oneof(fc.array(fc.anything(), { maxLength: 30 }), junk);
    const body = fc.record(
      {
        experiment_type: fc.oneof(fc.constantFrom(...EXPERIMENT_TYPES), fc.string(), junk),
        privacy: fc.oneof(fc.constantFrom("open", "delayed_6mo", "delayed_12mo", "private", "PRIVATE"), junk),
        turnaround_priority: fc.oneof(fc.constantFrom("standard", "expedited", "urgent"), junk),
        turnaround_budget: fc.oneof(fc.record({ priority: fc.oneof(fc.constantFrom("urgent"), junk) }), junk),
        deliverables: fc.oneof(
          fc.record({
            minimum_package_level: fc.oneof(fc.constantFrom("L0_RAW_ONLY", "L2_INTERPRETATION", "L1"), junk),
          }),
          junk,
        ),
        replicates: fc.oneof(
          fc.record(
            {
              technical: count,
              biological: count,
              technical_replicates: count,
              biological_replicates: count,
            },
            { requiredKeys: [] },
          ),
          junk,
        ),
        protocol: fc.oneof(
          fc.record(
            {
              template_id: fc.oneof(fc.constantFrom(...TEMPLATES.map((t) => t.id)), junk),
              template_parameters: fc.oneof(
                fc.record({ number_of_concentrations: count, read_direction: junk }),
                junk,
              ),
              replicates: fc.oneof(fc.record({ technical_replicates: count }), junk),
            },
            { requiredKeys: [] },
          ),
          junk,
        ),
        qpcr: fc.oneof(
          fc.record({ number_of_samples: count, targets: list, housekeeping_genes: list }),
          junk,
        ),
        cell_viability: fc.oneof(
          fc.record({ dose_range: fc.oneof(fc.record({ points: count }), junk) }),
          junk,
        ),
        enzyme_inhibition: fc.oneof(fc.record({ inhibitor_concentrations: list }), junk),
        microbial_growth: fc.oneof(
          fc.record({
            condition_matrix: fc.oneof(fc.array(fc.record({ values: list }), { maxLength: 6 }), junk),
          }),
          junk,
        ),
        mic_mbc: fc.oneof(
          fc.record({
            concentration_range: fc.oneof(
              fc.record({ min: fc.double(), max: fc.double(), dilution_series: junk }),
              junk,
            ),
          }),
          junk,
        ),
        mic_mbc_assay: fc.oneof(
          fc.record({
            target_organisms: list,
            test_compounds: fc.oneof(fc.array(fc.record({ concentrations_ug_ml: list })), junk),
          }),
          junk,
        ),
        zone_of_inhibition: fc.oneof(fc.record({ disk_loading: list }), junk),
        sanger: fc.oneof(fc.record({ primers: list }), junk),
        custom_protocol: fc.oneof(fc.record({ number_of_samples: count }), junk),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(body, fc.integer({ min: 0, max: 20 }), (raw, operators) => {
        const e = estimateExperiment(estimateInputFrom(raw), { operatorsAbleToTakeIt: operators });
        const { low, typical, high } = e.estimated_cost_usd;
        expect(0 < low && low <= typical && typical <= high).toBe(true);
        const b = e.cost_breakdown;
        const sum = [b.materials, b.labor, b.equipment, b.platform_fee, b.privacy_premium].reduce(
          (s, v) => s + Math.round(v * 100),
          0,
        );
        expect(sum).toBe(Math.round(typical * 100));
        expect(Number.isInteger(e.estimated_turnaround_days.standard)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("toCount", () => {
  it("accepts positive numbers and numeric strings, rounds down and clamps", () => {
    expect(toCount(3)).toBe(3);
    expect(toCount(3.9)).toBe(3);
    expect(toCount(" 12 ")).toBe(12);
    expect(toCount(1e12)).toBe(10_000);
    expect(toCount(50, 20)).toBe(20);
    for (const bad of [0, 0.5, -1, Number.NaN, "", "3x", "-2", null, undefined, {}, [3], true]) {
      expect(toCount(bad), String(bad)).toBeUndefined();
    }
    expect(toCount(Number.POSITIVE_INFINITY)).toBe(10_000);
  });
});
