import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EXPERIMENT_TYPES,
  type ExperimentTypeName,
  PRIVACY_LEVELS,
  TURNAROUND_PRIORITIES,
} from "@petri/contracts/vocabulary";
import { TEMPLATES } from "../templates/index.js";
import { INTAKE_MARKET_BANDS_USD } from "../../../test/support/market-bands.js";
import type { EstimateInput, ExperimentEstimate } from "./index.js";
import {
  DEFAULT_ESTIMATE_INPUT,
  MAX_WORK_MULTIPLE,
  OPERATOR_AVAILABILITY_THRESHOLDS,
  PACKAGE_LEVELS,
  TYPE_COST_MODELS,
  WORK_FIXED_SHARE,
  estimateCents,
  estimateExperiment,
  estimateInputFrom,
  operatorAvailability,
  toCount,
} from "./index.js";

const ctx = { operatorsAbleToTakeIt: 5 };
const input = (over: Partial<EstimateInput> = {}): EstimateInput => ({
  ...DEFAULT_ESTIMATE_INPUT,
  work: {},
  ...over,
});
const est = (over: Partial<EstimateInput> = {}) => estimateExperiment(input(over), ctx);
const cents = (usd: number) => Math.round(usd * 100);
const typical = (over: Partial<EstimateInput> = {}) => cents(est(over).estimated_cost_usd.typical);

/** The work-dependent factor relative to the reference experiment. */
const workFactor = (multiple: number) => WORK_FIXED_SHARE + (1 - WORK_FIXED_SHARE) * multiple;

function expectWellFormed(e: ExperimentEstimate) {
  const all = [
    ...Object.values(e.estimated_cost_usd),
    ...Object.values(e.cost_breakdown),
    ...Object.values(e.estimated_turnaround_days),
  ];
  for (const v of all) {
    expect(Number.isFinite(v)).toBe(true);
    expect(v).toBeGreaterThanOrEqual(0);
    expect(Math.round(v * 100) / 100).toBe(v); // at most two decimals
  }
  const { low, typical: mid, high } = e.estimated_cost_usd;
  expect(low).toBeLessThanOrEqual(mid);
  expect(mid).toBeLessThanOrEqual(high);
  expect(mid).toBeGreaterThan(0);
  const b = e.cost_breakdown;
  expect(
    cents(b.materials) +
      cents(b.labor) +
      cents(b.equipment) +
      cents(b.platform_fee) +
      cents(b.privacy_premium),
  ).toBe(cents(mid));
  for (const d of Object.values(e.estimated_turnaround_days))
    expect(Number.isInteger(d) && d >= 1).toBe(true);
  expect(e.estimated_turnaround_days.expedited).toBeLessThan(e.estimated_turnaround_days.standard);
}

describe("reference experiments", () => {
  it.each(EXPERIMENT_TYPES)("%s with nothing else stated is priced at its market band", (type) => {
    const band = TYPE_COST_MODELS[type].price_band_usd;
    const e = est({ experiment_type: type });
    expect(e.estimated_cost_usd.low).toBeCloseTo(band.low, 1);
    expect(e.estimated_cost_usd.typical).toBeCloseTo((band.low + band.high) / 2, 1);
    expect(e.estimated_cost_usd.high).toBeCloseTo(band.high, 1);
    expect(e.estimated_turnaround_days).toEqual(TYPE_COST_MODELS[type].turnaround_days);
    expect(e.cost_breakdown.privacy_premium).toBe(0);
    expectWellFormed(e);
  });

  it("uses the market bands of the intake model", () => {
    const bands = Object.fromEntries(
      EXPERIMENT_TYPES.map((t) => [
        t,
        [TYPE_COST_MODELS[t].price_band_usd.low, TYPE_COST_MODELS[t].price_band_usd.high],
      ]),
    );
    expect(bands).toMatchObject(INTAKE_MARKET_BANDS_USD);
  });

  it("prices an unknown type as CUSTOM", () => {
    expect(est({ experiment_type: null })).toEqual(est({ experiment_type: "CUSTOM" }));
    expect(estimateCents(input()).priced_as).toBe("CUSTOM");
  });

  it("splits the work into materials, labour and equipment by the type's shares", () => {
    for (const type of EXPERIMENT_TYPES) {
      const { materials, labor, equipment, platform_fee } = est({ experiment_type: type }).cost_breakdown;
      const lab = materials + labor + equipment;
      const split = TYPE_COST_MODELS[type].split;
      expect(split.materials + split.labor + split.equipment).toBeCloseTo(1, 10);
      expect(materials / lab).toBeCloseTo(split.materials, 3);
      expect(equipment / lab).toBeCloseTo(split.equipment, 3);
      expect(platform_fee / lab).toBeCloseTo(0.1, 3);
    }
  });
});

describe("each factor moves the price by its stated share", () => {
  const types = EXPERIMENT_TYPES;

  it.each([
    ["expedited", 1.2],
    ["urgent", 1.5],
  ] as const)("%s multiplies the whole price by %d", (priority, factor) => {
    for (const type of types) {
      for (const package_level of PACKAGE_LEVELS) {
        for (const privacy of PRIVACY_LEVELS) {
          const base = est({ experiment_type: type, package_level, privacy });
          const rushed = est({ experiment_type: type, package_level, privacy, priority });
          const want = cents(base.estimated_cost_usd.typical) * factor;
          expect(
            Math.abs(cents(rushed.estimated_cost_usd.typical) - want),
            `${type} ${privacy}`,
          ).toBeLessThanOrEqual(3);
          expect(rushed.cost_breakdown.materials).toBe(base.cost_breakdown.materials);
          expect(rushed.cost_breakdown.labor).toBeGreaterThan(base.cost_breakdown.labor);
        }
      }
    }
  });

  it.each([
    ["open", "L1_BASIC_QC", 0],
    ["delayed_6mo", "L1_BASIC_QC", 0.1],
    ["delayed_12mo", "L1_BASIC_QC", 0.15],
    ["private", "L0_RAW_ONLY", 0.25],
    ["private", "L1_BASIC_QC", 0.35],
    ["private", "L2_INTERPRETATION", 0.5],
    ["delayed_6mo", "L2_INTERPRETATION", 0.1],
  ] as const)("privacy %s at %s adds %d of the price before the premium", (privacy, package_level, rate) => {
    for (const type of types) {
      for (const priority of TURNAROUND_PRIORITIES) {
        const open = est({ experiment_type: type, package_level, priority });
        const e = est({ experiment_type: type, package_level, priority, privacy });
        const premium = cents(e.cost_breakdown.privacy_premium);
        const before = cents(e.estimated_cost_usd.typical) - premium;
        expect(before).toBe(cents(open.estimated_cost_usd.typical));
        expect(Math.abs(premium - before * rate)).toBeLessThanOrEqual(1);
      }
    }
  });

  it("keeps the private premium within docs/api.md's 25-50%", () => {
    for (const package_level of PACKAGE_LEVELS) {
      const e = est({ experiment_type: "QPCR_EXPRESSION", privacy: "private", package_level });
      const share =
        e.cost_breakdown.privacy_premium / (e.estimated_cost_usd.typical - e.cost_breakdown.privacy_premium);
      expect(share).toBeGreaterThanOrEqual(0.25 - 1e-4);
      expect(share).toBeLessThanOrEqual(0.5 + 1e-4);
    }
  });

  it("orders package levels L0 < L1 < L2 (x0.9, x1.0, x1.2 of the price)", () => {
    for (const type of types) {
      const l1 = typical({ experiment_type: type });
      const l0 = typical({ experiment_type: type, package_level: "L0_RAW_ONLY" });
      const l2 = typical({ experiment_type: type, package_level: "L2_INTERPRETATION" });
      expect(l0).toBeLessThan(l1);
      expect(l1).toBeLessThan(l2);
      expect(Math.abs(l0 - l1 * 0.9)).toBeLessThanOrEqual(2);
      expect(Math.abs(l2 - l1 * 1.2)).toBeLessThanOrEqual(2);
    }
  });

  it("multiplies the sample/well work by technical x biological replicates", () => {
    for (const type of types) {
      const reference = typical({ experiment_type: type });
      const cases: Array<[Partial<EstimateInput>, number]> = [
        [{ technical_replicates: 6 }, 2],
        [{ biological_replicates: 2 }, 2],
        [{ technical_replicates: 6, biological_replicates: 3 }, 6],
        [{ technical_replicates: 1 }, 1 / 3],
      ];
      for (const [over, multiple] of cases) {
        const got = typical({ experiment_type: type, ...over });
        expect(
          Math.abs(got - reference * workFactor(multiple)),
          `${type} ${JSON.stringify(over)}`,
        ).toBeLessThanOrEqual(2);
      }
    }
  });

  it.each([
    ["SANGER_PLASMID_VERIFICATION", { samples: 4 }, 4],
    ["SANGER_PLASMID_VERIFICATION", { reads_per_sample: 1 }, 0.5],
    ["QPCR_EXPRESSION", { samples: 12 }, 2],
    ["QPCR_EXPRESSION", { targets: 4 }, 2],
    ["QPCR_EXPRESSION", { reference_genes: 1, targets: 2 }, 1],
    ["CELL_VIABILITY_IC50", { compounds: 3 }, 3],
    ["CELL_VIABILITY_IC50", { dose_points: 5 }, 0.5],
    ["ENZYME_INHIBITION_IC50", { compounds: 2, dose_points: 20 }, 4],
    ["MICROBIAL_GROWTH_MATRIX", { conditions: 12 }, 2],
    ["MICROBIAL_GROWTH_MATRIX", { organisms: 3 }, 3],
    ["MIC_MBC_ASSAY", { organisms: 2, compounds: 2 }, 4],
    ["MIC_MBC_ASSAY", { dose_points: 8 }, 0.8],
    ["ZONE_OF_INHIBITION", { compounds: 2, dose_points: 3 }, 6],
    ["CUSTOM", { samples: 5 }, 5],
  ] as const)("%s: %o is %d x the reference work", (type, work, multiple) => {
    const reference = typical({ experiment_type: type as ExperimentTypeName });
    const got = typical({ experiment_type: type as ExperimentTypeName, work });
    expect(Math.abs(got - reference * workFactor(multiple))).toBeLessThanOrEqual(2);
    expect(
      estimateCents(input({ experiment_type: type as ExperimentTypeName, work })).work_multiple,
    ).toBeCloseTo(multiple, 10);
  });

  it("ignores dimensions that do not apply to the type", () => {
    expect(est({ experiment_type: "CELL_VIABILITY_IC50", work: { organisms: 9, targets: 4 } })).toEqual(
      est({ experiment_type: "CELL_VIABILITY_IC50" }),
    );
  });

  it("caps the work at MAX_WORK_MULTIPLE of the reference", () => {
    const huge = estimateCents(
      input({ experiment_type: "CUSTOM", work: { samples: 10_000 }, technical_replicates: 100 }),
    );
    expect(huge.work_multiple).toBe(MAX_WORK_MULTIPLE);
    const capped = cents(
      est({ experiment_type: "CUSTOM", work: { samples: MAX_WORK_MULTIPLE } }).estimated_cost_usd.typical,
    );
    expect(huge.typical).toBe(capped);
  });

  it("uses a template's cost band when the template fits the type", () => {
    const mic = est({ experiment_type: "MIC_MBC_ASSAY", template_id: "mic-broth-microdilution-v1" });
    const mbc = est({ experiment_type: "MIC_MBC_ASSAY", template_id: "mic-mbc-broth-microdilution-v1" });
    expect(mic.estimated_cost_usd).toEqual({ low: 200, typical: 275, high: 350 });
    expect(mbc.estimated_cost_usd.typical).toBeGreaterThan(mic.estimated_cost_usd.typical);
    // A template of another type is ignored; no type at all takes the template's.
    expect(est({ experiment_type: "QPCR_EXPRESSION", template_id: "mic-broth-microdilution-v1" })).toEqual(
      est({ experiment_type: "QPCR_EXPRESSION" }),
    );
    expect(est({ template_id: "mic-broth-microdilution-v1" })).toEqual(mic);
    expect(estimateCents(input({ template_id: "unknown-v1" })).template_id).toBeNull();
  });

  it("prices every template at its own band for its reference work", () => {
    for (const t of TEMPLATES) {
      const e = est({ template_id: t.id });
      expect(e.estimated_cost_usd.low, t.id).toBeCloseTo(t.estimated_cost_usd.low, 1);
      expect(e.estimated_cost_usd.high, t.id).toBeCloseTo(t.estimated_cost_usd.high, 1);
      expectWellFormed(e);
    }
  });
});

describe("turnaround", () => {
  it("adds a day for the interpretation package", () => {
    const l1 = est({ experiment_type: "QPCR_EXPRESSION" }).estimated_turnaround_days;
    const l2 = est({
      experiment_type: "QPCR_EXPRESSION",
      package_level: "L2_INTERPRETATION",
    }).estimated_turnaround_days;
    expect(l2).toEqual({ standard: l1.standard + 1, expedited: l1.expedited + 1 });
  });

  it("grows with each full extra reference-sized batch of work, up to a cap", () => {
    const days = (samples: number) =>
      est({ experiment_type: "CUSTOM", work: { samples } }).estimated_turnaround_days;
    expect(days(1)).toEqual({ standard: 21, expedited: 12 });
    expect(days(1.9)).toEqual({ standard: 21, expedited: 12 });
    expect(days(2)).toEqual({ standard: 22, expedited: 13 });
    expect(days(5)).toEqual({ standard: 25, expedited: 14 });
    expect(days(10_000)).toEqual({ standard: 51, expedited: 27 });
  });

  it("runs a CUSTOM template in queue days plus its run time", () => {
    expect(est({ template_id: "protein-quantification-bca-v1" }).estimated_turnaround_days).toEqual({
      standard: 6,
      expedited: 4,
    });
  });

  it("does not depend on priority or privacy", () => {
    expect(est({ priority: "urgent", privacy: "private" }).estimated_turnaround_days).toEqual(
      est().estimated_turnaround_days,
    );
  });
});

describe("operator availability", () => {
  it.each([
    [0, "none"],
    [-3, "none"],
    [Number.NaN, "none"],
    [1, "low"],
    [2, "low"],
    [3, "medium"],
    [7, "medium"],
    [8, "high"],
    [250, "high"],
    [2.9, "low"],
  ] as const)("%d operators -> %s", (n, level) => {
    expect(operatorAvailability(n)).toBe(level);
    expect(estimateExperiment(input(), { operatorsAbleToTakeIt: n }).operator_availability).toBe(level);
  });

  it("has ordered thresholds", () => {
    const t = OPERATOR_AVAILABILITY_THRESHOLDS;
    expect(t.low).toBe(1);
    expect(t.low < t.medium && t.medium < t.high).toBe(true);
  });
});

describe("invariants over arbitrary inputs", () => {
  const count = fc.oneof(fc.integer({ min: -5, max: 50_000 }), fc.double(), fc.constant(undefined));
  const anyInput: fc.Arbitrary<EstimateInput> = fc.record({
    experiment_type: fc.oneof(fc.constantFrom(...EXPERIMENT_TYPES), fc.constant(null)),
    template_id: fc.oneof(fc.constantFrom(...TEMPLATES.map((t) => t.id)), fc.constant(null), fc.string()),
    technical_replicates: count as fc.Arbitrary<number>,
    biological_replicates: count as fc.Arbitrary<number>,
    work: fc.record(
      {
        samples: count,
        reads_per_sample: count,
        targets: count,
        reference_genes: count,
        compounds: count,
        dose_points: count,
        organisms: count,
        conditions: count,
      },
      { requiredKeys: [] },
    ) as fc.Arbitrary<EstimateInput["work"]>,
    package_level: fc.constantFrom(...PACKAGE_LEVELS),
    priority: fc.constantFrom(...TURNAROUND_PRIORITIES),
    privacy: fc.constantFrom(...PRIVACY_LEVELS),
  });

  it("is well formed: two decimals, low <= typical <= high, breakdown sums to typical to the cent", () => {
    fc.assert(
      fc.property(anyInput, fc.integer({ min: -2, max: 40 }), (i, n) => {
        const e = estimateExperiment(i, { operatorsAbleToTakeIt: n });
        expectWellFormed(e);
        const c = estimateCents(i);
        const b = c.breakdown;
        expect(b.materials + b.labor + b.equipment + b.platform_fee + b.privacy_premium).toBe(c.typical);
        for (const v of [c.low, c.typical, c.high, ...Object.values(b)])
          expect(Number.isSafeInteger(v)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("never lowers the price when work, replicates, package, priority or privacy go up", () => {
    fc.assert(
      fc.property(anyInput, fc.integer({ min: 1, max: 5 }), (i, k) => {
        const base = estimateCents(i).typical;
        const more = [
          {
            ...i,
            technical_replicates: Math.min(100, (toCount(i.technical_replicates, 100) ?? 3) * (k + 1)),
          },
          { ...i, priority: "urgent" as const },
          { ...i, privacy: "private" as const },
          { ...i, package_level: "L2_INTERPRETATION" as const },
        ];
        for (const m of more) expect(estimateCents(m).typical).toBeGreaterThanOrEqual(base - 1);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the worked example of docs/estimates.md", () => {
  it("gives the documented figures", () => {
    const body = {
      experiment_type: "CELL_VIABILITY_IC50",
      privacy: "delayed_6mo",
      turnaround_budget: { priority: "expedited" },
      deliverables: { minimum_package_level: "L2_INTERPRETATION" },
      replicates: { technical: 3, biological: 3 },
      cell_viability: { compound_name: "X", dose_range: { min: 0.01, max: 100, unit: "uM", points: 8 } },
    };
    expect(estimateExperiment(estimateInputFrom(body), { operatorsAbleToTakeIt: 5 })).toEqual({
      estimated_cost_usd: { low: 874.37, typical: 1603.01, high: 2331.65 },
      estimated_turnaround_days: { standard: 16, expedited: 10 },
      cost_breakdown: {
        materials: 322,
        labor: 818.8,
        equipment: 184,
        platform_fee: 132.48,
        privacy_premium: 145.73,
      },
      operator_availability: "medium",
    });
  });
});
