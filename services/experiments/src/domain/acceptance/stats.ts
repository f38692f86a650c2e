// Test statistics for recomputing a reported statistical test from replicate measurements.
// The statistics are written here; jstat supplies only distribution functions (t, F, chi-square,
// normal, incomplete beta, log-gamma). Conventions follow R's defaults (t.test, oneway.test with
// var.equal = TRUE / aov, wilcox.test, chisq.test, fisher.test) so results can be checked in R.
// Packages that compile this source (the standalone host) see the ambient typing through this.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./jstat.d.ts" />
import jStat from "jstat";

export type TestName = "t_test" | "anova" | "mann_whitney" | "chi_square" | "fisher_exact";

export interface TestResult {
  readonly test: TestName;
  /** Human readable method, in the spirit of R's `method` field. */
  readonly method: string;
  /** Name of the statistic: t, F, W, X-squared, or "none" for Fisher's exact test. */
  readonly statisticName: string;
  /** The test statistic; null for Fisher's exact test (p-value comes from enumeration). */
  readonly statistic: number | null;
  /** Degrees of freedom: [df] for t / chi-square, [df1, df2] for F; empty when not applicable. */
  readonly df: readonly number[];
  readonly pValue: number;
  readonly notes: readonly string[];
}

/** Result of a test function: either a result or the reason the test cannot be computed. */
export type TestOutcome =
  { readonly ok: true; readonly result: TestResult } | { readonly ok: false; readonly reason: string };

const clampP = (p: number): number => (Number.isNaN(p) ? p : Math.min(1, Math.max(0, p)));

const fail = (reason: string): TestOutcome => ({ ok: false, reason });

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Unbiased sample variance (n - 1 denominator). */
function variance(xs: readonly number[]): number {
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return s / (xs.length - 1);
}

/** Two-sided p-value of a t statistic: 2 P(T <= -|t|), computed on the lower tail for accuracy. */
function tTwoSided(t: number, df: number): number {
  return clampP(2 * jStat.studentt.cdf(-Math.abs(t), df));
}

/** Upper tail P(F >= f) via the incomplete beta function (avoids 1 - cdf cancellation). */
function fUpper(f: number, df1: number, df2: number): number {
  if (f <= 0) return 1;
  return clampP(jStat.ibeta(df2 / (df2 + df1 * f), df2 / 2, df1 / 2));
}

/** Upper tail P(X >= x) of a chi-square distribution. */
function chiSquareUpper(x: number, df: number): number {
  if (x <= 0) return 1;
  return clampP(1 - jStat.chisquare.cdf(x, df));
}

/** log of the binomial coefficient C(n, k). */
function lchoose(n: number, k: number): number {
  return jStat.gammaln(n + 1) - jStat.gammaln(k + 1) - jStat.gammaln(n - k + 1);
}

/**
 * Two-sample t-test of x against y, two-sided, H0: equal means. Welch (unequal variances, the R
 * default `t.test(x, y)`) unless `equalVariance` is set (`t.test(x, y, var.equal = TRUE)`).
 */
export function tTest(x: readonly number[], y: readonly number[], equalVariance = false): TestOutcome {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 < 2 || n2 < 2) return fail("t-test needs at least 2 values in each group");
  const v1 = variance(x);
  const v2 = variance(y);
  const diff = mean(x) - mean(y);
  let se: number;
  let df: number;
  if (equalVariance) {
    df = n1 + n2 - 2;
    const pooled = ((n1 - 1) * v1 + (n2 - 1) * v2) / df;
    se = Math.sqrt(pooled * (1 / n1 + 1 / n2));
  } else {
    const a = v1 / n1;
    const b = v2 / n2;
    se = Math.sqrt(a + b);
    df = (a + b) ** 2 / (a ** 2 / (n1 - 1) + b ** 2 / (n2 - 1));
  }
  if (!(se > 0) || !Number.isFinite(se)) return fail("t-test undefined: both groups have zero variance");
  const t = diff / se;
  return {
    ok: true,
    result: {
      test: "t_test",
      method: equalVariance ? "Two Sample t-test" : "Welch Two Sample t-test",
      statisticName: "t",
      statistic: t,
      df: [df],
      pValue: tTwoSided(t, df),
      notes: [],
    },
  };
}

/** One-way ANOVA with equal variances (R: `anova(lm(value ~ group))` / `oneway.test(var.equal = TRUE)`). */
export function oneWayAnova(groups: readonly (readonly number[])[]): TestOutcome {
  const k = groups.length;
  if (k < 2) return fail("ANOVA needs at least 2 groups");
  if (groups.some((g) => g.length < 1)) return fail("ANOVA needs at least 1 value in each group");
  const all = groups.flat();
  const n = all.length;
  if (n - k < 1) return fail("ANOVA needs more values than groups (replicates within groups)");
  const grand = mean(all);
  let ssb = 0;
  let ssw = 0;
  for (const g of groups) {
    const m = mean(g);
    ssb += g.length * (m - grand) ** 2;
    for (const v of g) ssw += (v - m) ** 2;
  }
  const df1 = k - 1;
  const df2 = n - k;
  if (!(ssw > 0)) return fail("ANOVA undefined: no variation within groups");
  const f = ssb / df1 / (ssw / df2);
  return {
    ok: true,
    result: {
      test: "anova",
      method: "One-way analysis of variance",
      statisticName: "F",
      statistic: f,
      df: [df1, df2],
      pValue: fUpper(f, df1, df2),
      notes: k === 2 ? ["only 2 groups: ANOVA is equivalent to a Student t-test"] : [],
    },
  };
}

/** Mid-ranks (ties get the average rank) of the pooled values, 1-based. */
function midRanks(values: readonly number[]): { ranks: number[]; tieSizes: number[] } {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(values.length).fill(0);
  const tieSizes: number[] = [];
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]!.v === order[i]!.v) j++;
    const r = (i + j + 2) / 2;
    for (let k = i; k <= j; k++) ranks[order[k]!.i] = r;
    tieSizes.push(j - i + 1);
    i = j + 1;
  }
  return { ranks, tieSizes };
}

/**
 * Distribution of the Mann-Whitney U statistic (number of pairs x > y) for sample sizes m, n with
 * no ties: counts c(m, n, u) with c(i, j, u) = c(i - 1, j, u - j) + c(i, j - 1, u) (the largest
 * observation is either an x, beating all j y's, or a y). Returns counts indexed by u (0..m n).
 */
export function mannWhitneyCounts(m: number, n: number): number[] {
  // prev[i] = counts for (i, j - 1); cur[i] = counts for (i, j).
  let prev: number[][] = [];
  for (let i = 0; i <= m; i++) prev.push([1]); // j = 0: U is always 0
  for (let j = 1; j <= n; j++) {
    const cur: number[][] = [[1]]; // i = 0: U is always 0
    for (let i = 1; i <= m; i++) {
      const size = i * j + 1;
      const row = new Array<number>(size).fill(0);
      const fromY = prev[i]!;
      for (let u = 0; u < fromY.length; u++) row[u]! += fromY[u]!;
      const fromX = cur[i - 1]!;
      for (let u = 0; u < fromX.length; u++) row[u + j]! += fromX[u]!;
      cur.push(row);
    }
    prev = cur;
  }
  return prev[m]!;
}

/** Exact sizes below which (both groups) the exact null distribution is used when there are no ties, as R. */
export const MANN_WHITNEY_EXACT_LIMIT = 50;

/**
 * Wilcoxon rank-sum / Mann-Whitney test of x against y, two-sided, as R `wilcox.test(x, y)`:
 * W = rank sum of x - n1 (n1 + 1) / 2. Exact null distribution when both groups have fewer than 50
 * values and there are no ties; otherwise the normal approximation with tie-corrected variance and
 * continuity correction 0.5 toward zero.
 */
export function mannWhitney(x: readonly number[], y: readonly number[]): TestOutcome {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 < 1 || n2 < 1) return fail("Mann-Whitney needs at least 1 value in each group");
  const { ranks, tieSizes } = midRanks([...x, ...y]);
  let rankSumX = 0;
  for (let i = 0; i < n1; i++) rankSumX += ranks[i]!;
  const w = rankSumX - (n1 * (n1 + 1)) / 2;
  const hasTies = tieSizes.some((t) => t > 1);
  if (!hasTies && n1 < MANN_WHITNEY_EXACT_LIMIT && n2 < MANN_WHITNEY_EXACT_LIMIT) {
    const counts = mannWhitneyCounts(n1, n2);
    const total = counts.reduce((acc, v) => acc + v, 0); // = C(n1 + n2, n1)
    // w is an integer when there are no ties. Tails are summed directly (no 1 - cdf cancellation).
    let tail = 0;
    if (w > (n1 * n2) / 2) {
      for (let u = w; u < counts.length; u++) tail += counts[u]!; // P(W >= w)
    } else {
      for (let u = 0; u <= w; u++) tail += counts[u]!; // P(W <= w)
    }
    const p = tail / total;
    return {
      ok: true,
      result: {
        test: "mann_whitney",
        method: "Wilcoxon rank sum exact test",
        statisticName: "W",
        statistic: w,
        df: [],
        pValue: clampP(2 * p),
        notes: [],
      },
    };
  }
  const n = n1 + n2;
  let tieTerm = 0;
  for (const t of tieSizes) tieTerm += t ** 3 - t;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (!(sigma > 0)) return fail("Mann-Whitney undefined: all values are tied");
  const centred = w - (n1 * n2) / 2;
  const z = (centred - Math.sign(centred) * 0.5) / sigma;
  const p = 2 * jStat.normal.cdf(-Math.abs(z), 0, 1);
  return {
    ok: true,
    result: {
      test: "mann_whitney",
      method: "Wilcoxon rank sum test with continuity correction",
      statisticName: "W",
      statistic: w,
      df: [],
      pValue: clampP(p),
      notes: hasTies ? ["ties present: normal approximation with tie correction"] : [],
    },
  };
}

function validCountTable(table: readonly (readonly number[])[]): string | null {
  if (table.length < 2) return "contingency table needs at least 2 rows";
  const cols = table[0]!.length;
  if (cols < 2) return "contingency table needs at least 2 columns";
  for (const row of table) {
    if (row.length !== cols) return "contingency table rows have different lengths";
    for (const v of row) {
      if (!Number.isFinite(v) || v < 0) return "contingency table cells must be non-negative finite counts";
    }
  }
  return null;
}

/**
 * Pearson chi-square test of independence on an r x c table of counts, as R `chisq.test(m)`:
 * Yates continuity correction for 2 x 2 tables (R's default correct = TRUE), none otherwise.
 */
export function chiSquareTest(table: readonly (readonly number[])[], yates = true): TestOutcome {
  const invalid = validCountTable(table);
  if (invalid !== null) return fail(invalid);
  const r = table.length;
  const c = table[0]!.length;
  const rowSums = table.map((row) => row.reduce((a, b) => a + b, 0));
  const colSums = Array.from({ length: c }, (_, j) => table.reduce((a, row) => a + row[j]!, 0));
  const total = rowSums.reduce((a, b) => a + b, 0);
  if (rowSums.some((s) => s === 0) || colSums.some((s) => s === 0)) {
    return fail("chi-square undefined: a row or column total is zero");
  }
  const correct = yates && r === 2 && c === 2;
  let stat = 0;
  let smallExpected = false;
  for (let i = 0; i < r; i++) {
    for (let j = 0; j < c; j++) {
      const e = (rowSums[i]! * colSums[j]!) / total;
      if (e < 5) smallExpected = true;
      const dev = Math.abs(table[i]![j]! - e);
      const adj = correct ? dev - Math.min(0.5, dev) : dev;
      stat += (adj * adj) / e;
    }
  }
  const df = (r - 1) * (c - 1);
  return {
    ok: true,
    result: {
      test: "chi_square",
      method: correct
        ? "Pearson's Chi-squared test with Yates' continuity correction"
        : "Pearson's Chi-squared test",
      statisticName: "X-squared",
      statistic: stat,
      df: [df],
      pValue: chiSquareUpper(stat, df),
      notes: smallExpected ? ["some expected counts are below 5: the approximation may be poor"] : [],
    },
  };
}

/** Relative tolerance R's fisher.test uses when summing table probabilities <= the observed one. */
export const FISHER_RELATIVE_TOLERANCE = 1e-7;

/**
 * Most tables (values of the first cell with the margins fixed) Fisher's test enumerates. Counts
 * in a lab's 2 x 2 table are far below it; a submitted table with counts in the millions would
 * otherwise make the evaluator allocate and sum one probability per table.
 */
export const FISHER_MAX_TABLES = 100_000;

/**
 * Fisher's exact test on a 2 x 2 table [[a, b], [c, d]], two-sided as R `fisher.test`: the p-value is
 * the sum of the hypergeometric probabilities (fixed margins) of all tables whose probability is
 * <= the observed table's probability x (1 + 1e-7).
 */
export function fisherExact(table: readonly (readonly number[])[]): TestOutcome {
  const invalid = validCountTable(table);
  if (invalid !== null) return fail(invalid);
  if (table.length !== 2 || table[0]!.length !== 2)
    return fail("Fisher's exact test here supports 2 x 2 tables only");
  const [[a, b], [c, d]] = table as [[number, number], [number, number]];
  if (![a, b, c, d].every((v) => Number.isInteger(v)))
    return fail("Fisher's exact test needs integer counts");
  const m = a + c; // first column total
  const n = b + d; // second column total
  const k = a + b; // first row total
  const lo = Math.max(0, k - n);
  const hi = Math.min(k, m);
  if (hi - lo + 1 > FISHER_MAX_TABLES)
    return fail(
      `Fisher's exact test enumerates at most ${FISHER_MAX_TABLES} tables and these counts have ${hi - lo + 1}; chi_square suits counts this large`,
    );
  const logP: number[] = [];
  for (let x = lo; x <= hi; x++) logP.push(lchoose(m, x) + lchoose(n, k - x) - lchoose(m + n, k));
  const maxLog = logP.reduce((max, l) => (l > max ? l : max), Number.NEGATIVE_INFINITY);
  const dens = logP.map((l) => Math.exp(l - maxLog));
  const sum = dens.reduce((s, v) => s + v, 0);
  const observed = dens[a - lo]!;
  let p = 0;
  for (const v of dens) if (v <= observed * (1 + FISHER_RELATIVE_TOLERANCE)) p += v;
  const sampleOdds = b * c === 0 ? (a * d === 0 ? Number.NaN : Number.POSITIVE_INFINITY) : (a * d) / (b * c);
  return {
    ok: true,
    result: {
      test: "fisher_exact",
      method: "Fisher's Exact Test for Count Data",
      statisticName: "none",
      statistic: null,
      df: [],
      pValue: clampP(p / sum),
      notes: Number.isNaN(sampleOdds) ? [] : [`sample odds ratio (ad/bc) = ${sampleOdds}`],
    },
  };
}
