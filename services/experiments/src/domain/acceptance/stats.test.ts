// Reference values come from R 4.x (Debian r-base-core), `options(digits = 15)`; each fixture carries
// the exact R command so it can be re-run. Exact tests (Fisher, small Mann-Whitney) are additionally
// checked against a brute-force enumeration written independently in this file.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  chiSquareTest,
  FISHER_MAX_TABLES,
  fisherExact,
  mannWhitney,
  mannWhitneyCounts,
  oneWayAnova,
  tTest,
  type TestOutcome,
} from "./stats.js";

const REL = 1e-6;

function closeRel(actual: number | null | undefined, expected: number): void {
  expect(actual).not.toBeNull();
  expect(actual).not.toBeUndefined();
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(REL * Math.abs(expected) + 1e-12);
}

function ok(o: TestOutcome) {
  if (!o.ok) throw new Error(`expected a result, got: ${o.reason}`);
  return o.result;
}

const sleep1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const sleep2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

describe("tTest", () => {
  it("Welch fixture 1", () => {
    // R: t.test(c(5.1,4.9,5.6,5.8,6.0,5.3), c(6.2,6.8,7.1,6.5,6.9))
    //    -> t = -5.33811209412872, df = 8.99519662267726, p = 0.000470482189180091
    const r = ok(tTest([5.1, 4.9, 5.6, 5.8, 6.0, 5.3], [6.2, 6.8, 7.1, 6.5, 6.9]));
    expect(r.method).toBe("Welch Two Sample t-test");
    closeRel(r.statistic, -5.33811209412872);
    closeRel(r.df[0], 8.99519662267726);
    closeRel(r.pValue, 0.000470482189180091);
  });

  it("Welch fixture 2 (sleep data)", () => {
    // R: t.test(c(0.7,-1.6,-0.2,-1.2,-0.1,3.4,3.7,0.8,0.0,2.0), c(1.9,0.8,1.1,0.1,-0.1,4.4,5.5,1.6,4.6,3.4))
    //    -> t = -1.86081346748685, df = 17.7764735161785, p = 0.0793941401873582
    const r = ok(tTest(sleep1, sleep2));
    closeRel(r.statistic, -1.86081346748685);
    closeRel(r.df[0], 17.7764735161785);
    closeRel(r.pValue, 0.0793941401873582);
  });

  it("Student (pooled) variant", () => {
    // R: t.test(<sleep1>, <sleep2>, var.equal = TRUE) -> t = -1.86081346748685, df = 18, p = 0.0791867142159382
    const r = ok(tTest(sleep1, sleep2, true));
    expect(r.method).toBe("Two Sample t-test");
    closeRel(r.statistic, -1.86081346748685);
    expect(r.df[0]).toBe(18);
    closeRel(r.pValue, 0.0791867142159382);
  });

  it("refuses groups with fewer than 2 values or zero variance", () => {
    expect(tTest([1], [2, 3]).ok).toBe(false);
    expect(tTest([1, 1], [2, 2]).ok).toBe(false);
  });
});

describe("oneWayAnova", () => {
  it("fixture 1: 3 groups of 4", () => {
    // R: oneway.test(v ~ g, data.frame(v = c(4.2,4.8,5.1,4.5, 5.9,6.3,5.7,6.1, 4.9,5.2,5.0,5.5),
    //      g = factor(rep(c("A","B","C"), each = 4))), var.equal = TRUE)
    //    -> F = 19.5, df = 2, 9, p = 0.000535187207844081 (same as summary(aov(v ~ g, ...)))
    const r = ok(
      oneWayAnova([
        [4.2, 4.8, 5.1, 4.5],
        [5.9, 6.3, 5.7, 6.1],
        [4.9, 5.2, 5.0, 5.5],
      ]),
    );
    closeRel(r.statistic, 19.5);
    expect(r.df).toEqual([2, 9]);
    closeRel(r.pValue, 0.000535187207844081);
  });

  it("fixture 2: 4 unequal groups", () => {
    // R: oneway.test(v ~ g, data.frame(v = c(12.1,13.4,11.8, 14.2,15.1,13.9,14.8, 12.9,13.3, 15.6,16.2,15.0,16.8,15.9),
    //      g = factor(c(rep("A",3), rep("B",4), rep("C",2), rep("D",5)))), var.equal = TRUE)
    //    -> F = 20.7000150217816, df = 3, 10, p = 0.000130652784804387
    const r = ok(
      oneWayAnova([
        [12.1, 13.4, 11.8],
        [14.2, 15.1, 13.9, 14.8],
        [12.9, 13.3],
        [15.6, 16.2, 15.0, 16.8, 15.9],
      ]),
    );
    closeRel(r.statistic, 20.7000150217816);
    expect(r.df).toEqual([3, 10]);
    closeRel(r.pValue, 0.000130652784804387);
  });

  it("with two groups equals the pooled t-test (F = t^2)", () => {
    const a = ok(oneWayAnova([sleep1, sleep2]));
    const t = ok(tTest(sleep1, sleep2, true));
    closeRel(a.statistic, t.statistic! ** 2);
    closeRel(a.pValue, t.pValue);
  });
});

/** Brute force: enumerate every split of the pooled ranks 1..m+n into m x-ranks; exact two-sided p as R. */
function bruteExactP(x: readonly number[], y: readonly number[]): number {
  const all = [...x, ...y].sort((a, b) => a - b);
  const rank = (v: number) => all.indexOf(v) + 1; // no ties assumed
  const m = x.length;
  const n = y.length;
  const w = x.reduce((s, v) => s + rank(v), 0) - (m * (m + 1)) / 2;
  const ws: number[] = [];
  const pick = (start: number, left: number, sum: number) => {
    if (left === 0) {
      ws.push(sum - (m * (m + 1)) / 2);
      return;
    }
    for (let r = start; r <= m + n - left + 1; r++) pick(r + 1, left - 1, sum + r);
  };
  pick(1, m, 0);
  const lower = ws.filter((u) => u <= w).length / ws.length;
  const upper = ws.filter((u) => u >= w).length / ws.length;
  return Math.min(1, 2 * (w > (m * n) / 2 ? upper : lower));
}

describe("mannWhitney", () => {
  it("exact, no ties, fixture 1", () => {
    // R: wilcox.test(c(0.8,0.83,1.89,1.04,1.45,1.38,1.91,1.64,0.73,1.46), c(1.15,0.88,0.90,0.74,1.21))
    //    -> W = 35, p = 0.254412254412254 (exact)
    const x = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
    const y = [1.15, 0.88, 0.9, 0.74, 1.21];
    const r = ok(mannWhitney(x, y));
    expect(r.method).toBe("Wilcoxon rank sum exact test");
    expect(r.statistic).toBe(35);
    closeRel(r.pValue, 0.254412254412254);
    closeRel(r.pValue, bruteExactP(x, y));
  });

  it("exact, no ties, fixture 2 (complete separation)", () => {
    // R: wilcox.test(c(3.1,4.2,5.0,6.3), c(7.4,8.8,9.1,10.2,11.5)) -> W = 0, p = 0.0158730158730159 (= 2/126)
    const x = [3.1, 4.2, 5.0, 6.3];
    const y = [7.4, 8.8, 9.1, 10.2, 11.5];
    const r = ok(mannWhitney(x, y));
    expect(r.statistic).toBe(0);
    closeRel(r.pValue, 0.0158730158730159);
    closeRel(r.pValue, bruteExactP(x, y));
  });

  it("normal approximation with ties, fixture 1", () => {
    // R: wilcox.test(c(1.83,0.50,1.62,2.48,1.68,1.88,1.55,3.06,1.30), c(0.878,0.647,0.598,2.05,1.06,1.29,1.06,3.14,1.29))
    //    -> W = 58, p = 0.132919458185319 (warning: cannot compute exact p-value with ties)
    const r = ok(
      mannWhitney(
        [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3],
        [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29],
      ),
    );
    expect(r.method).toBe("Wilcoxon rank sum test with continuity correction");
    expect(r.statistic).toBe(58);
    closeRel(r.pValue, 0.132919458185319);
  });

  it("normal approximation with ties, fixture 2", () => {
    // R: wilcox.test(c(1,2,2,3,4,4,4,5), c(3,4,5,5,6,6,7)) -> W = 8, p = 0.0219206558647695
    const r = ok(mannWhitney([1, 2, 2, 3, 4, 4, 4, 5], [3, 4, 5, 5, 6, 6, 7]));
    expect(r.statistic).toBe(8);
    closeRel(r.pValue, 0.0219206558647695);
  });

  it("normal approximation with ties, fixture 3 (half-integer W)", () => {
    // R: wilcox.test(c(10,12,12,15,15,15,18,20,21,22), c(8,9,10,10,12,13,14,15,16)) -> W = 70.5, p = 0.0396333602591797
    const r = ok(mannWhitney([10, 12, 12, 15, 15, 15, 18, 20, 21, 22], [8, 9, 10, 10, 12, 13, 14, 15, 16]));
    expect(r.statistic).toBe(70.5);
    closeRel(r.pValue, 0.0396333602591797);
  });

  it("normal approximation for a group of 50 or more without ties", () => {
    // R: x <- seq(1.5, 60, by = 1.0); y <- seq(2.25, 80, by = 1.5); wilcox.test(x, y)  (59 and 52 values)
    //    -> W = 1141, p = 0.0203681672479039
    const x = Array.from({ length: 59 }, (_, i) => 1.5 + i);
    const y = Array.from({ length: 52 }, (_, i) => 2.25 + 1.5 * i);
    const r = ok(mannWhitney(x, y));
    expect(r.method).toBe("Wilcoxon rank sum test with continuity correction");
    expect(r.statistic).toBe(1141);
    closeRel(r.pValue, 0.0203681672479039);
  });

  it("exact distribution counts sum to C(m+n, m) and match brute force on random samples", () => {
    expect(mannWhitneyCounts(4, 5).reduce((a, b) => a + b, 0)).toBe(126);
    expect(mannWhitneyCounts(10, 10).reduce((a, b) => a + b, 0)).toBe(184756);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: 2, maxLength: 12 }),
        fc.integer({ min: 1, max: 11 }),
        (vals, cut) => {
          const k = Math.min(cut, vals.length - 1);
          const x = vals.slice(0, k);
          const y = vals.slice(k);
          const r = ok(mannWhitney(x, y));
          expect(Math.abs(r.pValue - bruteExactP(x, y))).toBeLessThan(1e-12);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("chiSquareTest", () => {
  it("2x2 with Yates correction (R default)", () => {
    // R: chisq.test(matrix(c(12, 5, 7, 16), nrow = 2)) -> X-squared = 4.81228647065234, df = 1, p = 0.0282575285263613
    // (matrix fills by column: rows (12, 7) and (5, 16))
    const r = ok(
      chiSquareTest([
        [12, 7],
        [5, 16],
      ]),
    );
    expect(r.method).toContain("Yates");
    closeRel(r.statistic, 4.81228647065234);
    expect(r.df).toEqual([1]);
    closeRel(r.pValue, 0.0282575285263613);
  });

  it("2x3 without correction", () => {
    // R: chisq.test(matrix(c(20, 15, 30, 25, 10, 35), nrow = 2, byrow = TRUE))
    //    -> X-squared = 1.75739644970414, df = 2, p = 0.415323217369751
    const r = ok(
      chiSquareTest([
        [20, 15, 30],
        [25, 10, 35],
      ]),
    );
    expect(r.method).toBe("Pearson's Chi-squared test");
    closeRel(r.statistic, 1.75739644970414);
    expect(r.df).toEqual([2]);
    closeRel(r.pValue, 0.415323217369751);
  });

  it("3x3", () => {
    // R: chisq.test(matrix(c(30, 10, 20, 20, 25, 15, 10, 30, 22), nrow = 3, byrow = TRUE))
    //    -> X-squared = 21.2792869269949, df = 4, p = 0.000278741242716534
    const r = ok(
      chiSquareTest([
        [30, 10, 20],
        [20, 25, 15],
        [10, 30, 22],
      ]),
    );
    closeRel(r.statistic, 21.2792869269949);
    expect(r.df).toEqual([4]);
    closeRel(r.pValue, 0.000278741242716534);
  });

  it("rejects zero margins and bad tables", () => {
    expect(chiSquareTest([[1, 2]]).ok).toBe(false);
    expect(
      chiSquareTest([
        [0, 0],
        [3, 4],
      ]).ok,
    ).toBe(false);
    expect(
      chiSquareTest([
        [1, -2],
        [3, 4],
      ]).ok,
    ).toBe(false);
  });
});

/** Independent Fisher check: enumerate tables with the same margins using exact rational-ish arithmetic (BigInt). */
function bruteFisherP(a: number, b: number, c: number, d: number): number {
  const fact = (k: number): bigint => {
    let r = 1n;
    for (let i = 2n; i <= BigInt(k); i++) r *= i;
    return r;
  };
  const r1 = a + b;
  const r2 = c + d;
  const c1 = a + c;
  // P(table) is proportional to 1 / (x! (r1-x)! (c1-x)! (r2-c1+x)!); compare via the denominators.
  const denom = (x: number) => fact(x) * fact(r1 - x) * fact(c1 - x) * fact(r2 - c1 + x);
  const tables: bigint[] = [];
  for (let x = Math.max(0, c1 - r2); x <= Math.min(r1, c1); x++) tables.push(denom(x));
  const obs = denom(a);
  // probability ratio p(x)/p(obs) = obs/denom(x); include when <= 1 + 1e-7, i.e. obs <= denom(x) (1 + 1e-7).
  const num = tables.filter((t) => Number(obs) <= Number(t) * (1 + 1e-7));
  const scale = (t: bigint) => Number((obs * 10n ** 15n) / t) / 1e15; // p(x)/p(obs)
  const total = tables.reduce((s, t) => s + scale(t), 0);
  return num.reduce((s, t) => s + scale(t), 0) / total;
}

describe("fisherExact", () => {
  const fixtures: [string, [[number, number], [number, number]], number][] = [
    // R: fisher.test(matrix(c(3, 1, 1, 3), nrow = 2, byrow = TRUE)) -> p = 0.485714285714286
    [
      "tea tasting",
      [
        [3, 1],
        [1, 3],
      ],
      0.485714285714286,
    ],
    // R: fisher.test(matrix(c(10, 2, 3, 15), nrow = 2, byrow = TRUE)) -> p = 0.000536724119143436
    [
      "strong association",
      [
        [10, 2],
        [3, 15],
      ],
      0.000536724119143436,
    ],
    // R: fisher.test(matrix(c(1, 9, 11, 3), nrow = 2, byrow = TRUE)) -> p = 0.00275945618522008
    [
      "asymmetric margins",
      [
        [1, 9],
        [11, 3],
      ],
      0.00275945618522008,
    ],
    // R: fisher.test(matrix(c(2, 3, 3, 2), nrow = 2, byrow = TRUE)) -> p = 1 (symmetric: equal-probability tables included)
    [
      "symmetric",
      [
        [2, 3],
        [3, 2],
      ],
      1,
    ],
  ];
  for (const [name, table, expected] of fixtures) {
    it(name, () => {
      const r = ok(fisherExact(table));
      closeRel(r.pValue, expected);
      const [[a, b], [c, d]] = table;
      closeRel(r.pValue, bruteFisherP(a, b, c, d));
    });
  }

  it("matches enumeration on random 2x2 tables", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 4, maxLength: 4 }),
        ([a, b, c, d]) => {
          fc.pre(a! + b! > 0 && c! + d! > 0 && a! + c! > 0 && b! + d! > 0);
          const r = ok(
            fisherExact([
              [a!, b!],
              [c!, d!],
            ]),
          );
          expect(Math.abs(r.pValue - bruteFisherP(a!, b!, c!, d!))).toBeLessThan(1e-9);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("enumerates up to FISHER_MAX_TABLES tables and refuses counts that would need more", () => {
    // Margins 99,999 each: first-cell values 0..99,999, exactly the limit.
    const atLimit = ok(
      fisherExact([
        [50_000, 49_999],
        [49_999, 50_000],
      ]),
    );
    expect(atLimit.pValue).toBeGreaterThanOrEqual(0);
    expect(atLimit.pValue).toBeLessThanOrEqual(1);
    const huge = fisherExact([
      [84_610_402, 1],
      [1, 84_610_402],
    ]);
    expect(huge.ok).toBe(false);
    if (!huge.ok) expect(huge.reason).toContain(`at most ${FISHER_MAX_TABLES} tables`);
  });

  it("rejects non-2x2 or non-integer tables", () => {
    expect(
      fisherExact([
        [1, 2, 3],
        [4, 5, 6],
      ]).ok,
    ).toBe(false);
    expect(
      fisherExact([
        [1.5, 2],
        [3, 4],
      ]).ok,
    ).toBe(false);
  });
});
