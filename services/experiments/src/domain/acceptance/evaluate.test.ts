import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildContingencyTable,
  compare,
  evaluateAcceptance,
  failureKeywords,
  normaliseTestName,
  type AcceptanceCriteria,
  type Measurement,
  type ResultsInput,
} from "./index.js";

const results = (
  measurements: Measurement[],
  extra: Partial<ResultsInput> = {},
  p?: unknown,
  test?: string,
): ResultsInput => ({
  structured_data: {
    measurements,
    statistics: p === undefined && test === undefined ? null : { p_value: p, test_used: test },
  },
  ...extra,
});

describe("compare (operators)", () => {
  it.each([
    ["gt", 5, 4, true],
    ["gt", 4, 4, false],
    ["gte", 4, 4, true],
    ["gte", 3.999, 4, false],
    ["lt", 3, 4, true],
    ["lt", 4, 4, false],
    ["lte", 4, 4, true],
    ["lte", 4.001, 4, false],
    ["eq", 0.1 + 0.2, 0.3, true],
    ["eq", 0.31, 0.3, false],
    ["neq", 0.31, 0.3, true],
    ["neq", 0.1 + 0.2, 0.3, false],
  ] as const)("%s: %s vs %s -> %s", (op, v, t, met) => {
    expect(compare(op, v, t)).toEqual({ ok: true, met });
  });

  it("between is inclusive at both edges; not_between is its complement", () => {
    const range = { min: 2, max: 5 };
    for (const [v, inside] of [
      [1.999, false],
      [2, true],
      [3.5, true],
      [5, true],
      [5.001, false],
    ] as const) {
      expect(compare("between", v, range)).toEqual({ ok: true, met: inside });
      expect(compare("not_between", v, range)).toEqual({ ok: true, met: !inside });
    }
    expect(compare("between", 2, { min: 2, max: 2 })).toEqual({ ok: true, met: true });
  });

  it("rejects invalid thresholds and operators", () => {
    expect(compare("between", 3, 4).ok).toBe(false);
    expect(compare("between", 3, { min: 5, max: 2 }).ok).toBe(false);
    expect(compare("gt", 3, { min: 1, max: 2 }).ok).toBe(false);
    expect(compare("approx", 3, 3).ok).toBe(false);
  });
});

describe("success conditions", () => {
  const crit = (op: string, threshold: unknown, unit = "%"): AcceptanceCriteria => ({
    success_conditions: [
      { metric: "viability", operator: op, threshold: threshold as number, unit, description: "d" },
    ],
  });

  it("uses the mean of several values and reports them", () => {
    const e = evaluateAcceptance(
      crit("gte", 80),
      results([
        { metric: "viability", value: 78, unit: "%", condition: "treated" },
        { metric: "Viability ", value: 84, unit: "%", condition: "treated" },
      ]),
    );
    const s = e.successConditions[0]!;
    expect(s.observed.values).toEqual([78, 84]);
    expect(s.observed.compared).toBe(81);
    expect(s.outcome).toBe("met");
    expect(s.unitCheck).toBe("match");
    expect(e.verdict).toBe("criteria_met");
  });

  it("not met -> criteria_not_met", () => {
    const e = evaluateAcceptance(
      crit("between", { min: 90, max: 100 }),
      results([{ metric: "viability", value: 89.9, unit: "%" }]),
    );
    expect(e.successConditions[0]!.outcome).toBe("not_met");
    expect(e.verdict).toBe("criteria_not_met");
  });

  it("not_between at the edge is not met", () => {
    const e = evaluateAcceptance(
      crit("not_between", { min: 10, max: 20 }),
      results([{ metric: "viability", value: 20, unit: "%" }]),
    );
    expect(e.successConditions[0]!.outcome).toBe("not_met");
  });

  it("unit mismatch -> indeterminate with a note and a flag", () => {
    const e = evaluateAcceptance(
      crit("gt", 0.5, "mM"),
      results([{ metric: "viability", value: 0.9, unit: "mm" }]),
    );
    const s = e.successConditions[0]!;
    expect(s.unitCheck).toBe("mismatch");
    expect(s.outcome).toBe("indeterminate");
    expect(s.notes.join(" ")).toMatch(/unit mismatch/);
    expect(e.flags.join(" ")).toMatch(/unit mismatch/);
    expect(e.verdict).toBe("indeterminate");
  });

  it("micro sign and Greek mu are the same unit", () => {
    const e = evaluateAcceptance(
      crit("lt", 10, "\u00b5M"),
      results([{ metric: "viability", value: 5, unit: "\u03bcM" }]),
    );
    expect(e.successConditions[0]!.unitCheck).toBe("match");
    expect(e.successConditions[0]!.outcome).toBe("met");
  });

  it("missing metric -> indeterminate", () => {
    const e = evaluateAcceptance(crit("gt", 1), results([{ metric: "other", value: 5, unit: "%" }]));
    expect(e.successConditions[0]!.outcome).toBe("indeterminate");
    expect(e.successConditions[0]!.observed.count).toBe(0);
    expect(e.verdict).toBe("indeterminate");
  });

  it("a not_met condition outweighs an indeterminate one", () => {
    const e = evaluateAcceptance(
      {
        success_conditions: [
          { metric: "a", operator: "gt", threshold: 10, unit: "" },
          { metric: "missing", operator: "gt", threshold: 1, unit: "" },
        ],
      },
      results([{ metric: "a", value: 3 }]),
    );
    expect(e.verdict).toBe("criteria_not_met");
  });
});

describe("failure conditions (keyword heuristic)", () => {
  it("extracts keywords without stop words and numbers", () => {
    expect(failureKeywords("Control wells show contamination above 5%")).toEqual([
      "control",
      "wells",
      "contamination",
      "above",
    ]);
  });

  it("flags a condition whose keywords appear in the notes", () => {
    const e = evaluateAcceptance(
      {
        success_conditions: [{ metric: "a", operator: "gt", threshold: 1, unit: "" }],
        failure_conditions: [
          { condition: "Contamination in control wells", interpretation: "invalid run" },
          { condition: "Cell detachment during imaging", interpretation: "repeat" },
        ],
      },
      results([{ metric: "a", value: 3 }], {
        operator_notes: "Some contamination seen in two control wells.",
      }),
    );
    expect(e.failureConditions[0]!.status).toBe("possibly_triggered");
    expect(e.failureConditions[0]!.matchedKeywords).toEqual(["contamination", "control", "wells"]);
    expect(e.failureConditions[1]!.status).toBe("not_detected");
    expect(e.verdict).toBe("indeterminate");
  });
});

describe("statistics", () => {
  // Same data as the Welch fixture in stats.test.ts:
  // R: t.test(c(5.1,4.9,5.6,5.8,6.0,5.3), c(6.2,6.8,7.1,6.5,6.9)) -> p = 0.000470482189180091
  const ms: Measurement[] = [
    ...[5.1, 4.9, 5.6, 5.8, 6.0, 5.3].map((value) => ({
      metric: "od600",
      value,
      unit: "AU",
      condition: "control",
    })),
    ...[6.2, 6.8, 7.1, 6.5, 6.9].map((value) => ({
      metric: "od600",
      value,
      unit: "AU",
      condition: "treated",
    })),
  ];
  const criteria: AcceptanceCriteria = {
    statistical_requirements: { significance_level: 0.05, statistical_test: "t_test", power: 0.8 },
  };

  it("recomputes the t-test and agrees with a rounded reported p", () => {
    const e = evaluateAcceptance(criteria, results(ms, {}, 0.00047, "Welch t-test"));
    expect(e.recomputation.status).toBe("computed");
    expect(e.recomputation.basis).toEqual({
      metric: "od600",
      groups: ["control", "treated"],
      categories: [],
    });
    expect(e.recomputation.result!.pValue).toBeCloseTo(0.000470482189180091, 9);
    expect(e.recomputation.agreement!.agrees).toBe(true);
    expect(e.significance.reported).toBe("significant");
    expect(e.significance.recomputed).toBe("significant");
    expect(e.flags).toEqual([]);
    expect(e.verdict).toBe("criteria_met");
  });

  it("flags a reported p-value that disagrees with the recomputed one", () => {
    const e = evaluateAcceptance(criteria, results(ms, {}, 0.03, "t_test"));
    expect(e.recomputation.agreement!.agrees).toBe(false);
    expect(e.flags.join(" ")).toMatch(/disagrees with recomputed/);
    expect(e.verdict).toBe("indeterminate");
  });

  it("not significant -> criteria_not_met; missing p -> significance missing", () => {
    const one = ms.slice(0, 6);
    const e = evaluateAcceptance(criteria, results(one, {}, 0.2));
    expect(e.recomputation.status).toBe("not_applicable");
    expect(e.significance.reported).toBe("not_significant");
    expect(e.verdict).toBe("criteria_not_met");
    const m = evaluateAcceptance(criteria, results(one));
    expect(m.significance.reported).toBe("missing");
    expect(m.verdict).toBe("indeterminate");
  });

  it("flags a test name differing from the required one", () => {
    const e = evaluateAcceptance(criteria, results(ms, {}, 0.00047, "mann_whitney"));
    expect(e.flags.join(" ")).toMatch(/differs from the required test/);
  });

  it("recomputes ANOVA on 3 condition groups", () => {
    // R: oneway.test(v ~ g, ..., var.equal = TRUE) on A/B/C below -> F = 19.5, df = 2, 9, p = 0.000535187207844081
    const groups: Record<string, number[]> = {
      A: [4.2, 4.8, 5.1, 4.5],
      B: [5.9, 6.3, 5.7, 6.1],
      C: [4.9, 5.2, 5.0, 5.5],
    };
    const m = Object.entries(groups).flatMap(([condition, vs]) =>
      vs.map((value) => ({ metric: "y", value, condition })),
    );
    const e = evaluateAcceptance(
      { statistical_requirements: { significance_level: 0.01, statistical_test: "anova" } },
      results(m, {}, 0.0005),
    );
    expect(e.recomputation.result!.statistic).toBeCloseTo(19.5, 9);
    expect(e.recomputation.agreement!.agrees).toBe(true);
    expect(e.verdict).toBe("criteria_met");
  });

  it("builds a contingency table (condition = row, metric = column, value = count) for Fisher and chi-square", () => {
    // R: fisher.test(matrix(c(10, 2, 3, 15), nrow = 2, byrow = TRUE)) -> p = 0.000536724119143436
    // R: chisq.test(matrix(c(10, 2, 3, 15), nrow = 2, byrow = TRUE)) (Yates) -> compared via chiSquareTest in stats tests
    const m: Measurement[] = [
      { metric: "resistant", value: 10, unit: "count", condition: "mutant" },
      { metric: "susceptible", value: 2, unit: "count", condition: "mutant" },
      { metric: "resistant", value: 3, unit: "count", condition: "wild_type" },
      { metric: "susceptible", value: 15, unit: "count", condition: "wild_type" },
      { metric: "od600", value: 0.42, unit: "AU", condition: "mutant" },
    ];
    const t = buildContingencyTable(m);
    expect(t).toMatchObject({
      table: [
        [10, 2],
        [3, 15],
      ],
      rows: ["mutant", "wild_type"],
      cols: ["resistant", "susceptible"],
    });
    const e = evaluateAcceptance(
      { statistical_requirements: { significance_level: 0.05, statistical_test: "fisher_exact" } },
      results(m, {}, 0.0005),
    );
    expect(e.recomputation.result!.pValue).toBeCloseTo(0.000536724119143436, 12);
    expect(e.recomputation.agreement!.agrees).toBe(true);
    const c = evaluateAcceptance(
      { statistical_requirements: { significance_level: 0.05, statistical_test: "chi-square" } },
      results(m),
    );
    expect(c.recomputation.result!.method).toContain("Yates");
  });

  it("normalises test names", () => {
    expect(normaliseTestName("Welch t-test")).toBe("t_test");
    expect(normaliseTestName("Mann-Whitney U")).toBe("mann_whitney");
    expect(normaliseTestName("Fisher's exact test")).toBe("fisher_exact");
    expect(normaliseTestName("kruskal")).toBeNull();
  });
});

describe("robustness", () => {
  const arbValue = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.string(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(Number.NaN),
    fc.constant(Infinity),
    fc.object(),
  );
  const arbMeasurement = fc.record(
    {
      metric: fc.oneof(fc.constantFrom("a", "b", "c"), fc.string(), fc.constant(null)),
      value: arbValue,
      unit: fc.oneof(fc.constantFrom("count", "%", "mM", ""), fc.string(), fc.constant(null)),
      condition: fc.oneof(fc.constantFrom("x", "y", "z"), fc.string(), fc.constant(null)),
    },
    { requiredKeys: [] },
  );
  const arbCriteria = fc.record(
    {
      success_conditions: fc.array(
        fc.record(
          {
            metric: fc.oneof(fc.constantFrom("a", "b"), fc.string()),
            operator: fc.oneof(
              fc.constantFrom("gt", "gte", "lt", "lte", "eq", "neq", "between", "not_between"),
              fc.string(),
            ),
            threshold: fc.oneof(
              fc.double(),
              fc.record({ min: fc.double(), max: fc.double() }),
              fc.constant(null),
              fc.anything(),
            ),
            unit: fc.oneof(fc.constantFrom("count", "%"), fc.string()),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 4 },
      ),
      failure_conditions: fc.array(fc.record({ condition: fc.string(), interpretation: fc.string() }), {
        maxLength: 3,
      }),
      statistical_requirements: fc.record(
        {
          significance_level: fc.oneof(fc.double(), fc.constant(0.05)),
          statistical_test: fc.oneof(
            fc.constantFrom("t_test", "anova", "mann_whitney", "chi_square", "fisher_exact"),
            fc.string(),
          ),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  );

  it("never throws on arbitrary measurements and criteria", () => {
    fc.assert(
      fc.property(
        arbCriteria,
        fc.array(arbMeasurement, { maxLength: 30 }),
        arbValue,
        fc.string(),
        (criteria, measurements, p, notes) => {
          const e = evaluateAcceptance(
            criteria as AcceptanceCriteria,
            results(measurements as Measurement[], { operator_notes: notes }, p),
          );
          expect(["criteria_met", "criteria_not_met", "indeterminate"]).toContain(e.verdict);
          expect(e.reasons.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never throws on garbage top-level inputs", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (c, r) => {
        expect(() => evaluateAcceptance(c as AcceptanceCriteria, r as ResultsInput)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
