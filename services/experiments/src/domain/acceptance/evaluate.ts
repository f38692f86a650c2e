// Automatic evaluation of a request's acceptance criteria against delivered results, for staff
// dispute review. Pure: no I/O, never throws on malformed input (every problem becomes a note or an
// "indeterminate" outcome). The verdict is advisory; staff decide the dispute.
import {
  chiSquareTest,
  fisherExact,
  mannWhitney,
  oneWayAnova,
  tTest,
  type TestName,
  type TestOutcome,
  type TestResult,
} from "./stats.js";

// ---------------------------------------------------------------------------------------------
// Input shapes (docs/api.md "Acceptance criteria" and "Results"). Fields are optional / loosely typed
// because stored JSON may be incomplete; the evaluator validates at run time.

export type Operator = "gt" | "gte" | "lt" | "lte" | "eq" | "neq" | "between" | "not_between";
export const OPERATORS: readonly Operator[] = [
  "gt",
  "gte",
  "lt",
  "lte",
  "eq",
  "neq",
  "between",
  "not_between",
];

export interface RangeThreshold {
  readonly min: number;
  readonly max: number;
}

export interface SuccessCondition {
  readonly metric?: string;
  readonly operator?: string;
  readonly threshold?: number | RangeThreshold | null;
  readonly unit?: string | null;
  readonly description?: string;
}

export interface FailureCondition {
  readonly condition?: string;
  readonly interpretation?: string;
}

export interface StatisticalRequirements {
  readonly significance_level?: number | null;
  readonly statistical_test?: string | null;
  readonly power?: number | null;
}

export interface AcceptanceCriteria {
  readonly success_conditions?: readonly SuccessCondition[] | null;
  readonly failure_conditions?: readonly FailureCondition[] | null;
  readonly statistical_requirements?: StatisticalRequirements | null;
}

export interface Measurement {
  readonly metric?: string | null;
  readonly value?: unknown;
  readonly unit?: string | null;
  readonly condition?: string | null;
}

export interface StructuredData {
  readonly measurements?: readonly Measurement[] | null;
  readonly statistics?: { readonly test_used?: string | null; readonly p_value?: unknown } | null;
}

/** The results record (docs/api.md "Results"); only these fields are read. */
export interface ResultsInput {
  readonly structured_data?: StructuredData | null;
  readonly summary?: string | null;
  readonly operator_notes?: string | null;
}

export interface EvaluateOptions {
  /** t_test variant: "welch" (default, R's t.test default) or "student" (pooled variance). */
  readonly tTestVariance?: "welch" | "student";
  /** Absolute tolerance between reported and recomputed p-values (default 0.001). */
  readonly pValueAbsoluteTolerance?: number;
  /** Relative tolerance (fraction of the larger p-value) between reported and recomputed (default 0.05). */
  readonly pValueRelativeTolerance?: number;
  /** Metric whose replicates are used to recompute a t-test / ANOVA / Mann-Whitney (default: see chooseMetric). */
  readonly testMetric?: string;
}

// ---------------------------------------------------------------------------------------------
// Output shapes.

export type ConditionOutcome = "met" | "not_met" | "indeterminate";

export interface ObservedValue {
  /** Number of numeric measurements found for the metric. */
  readonly count: number;
  /** The values found (numeric only). */
  readonly values: readonly number[];
  /** The value compared with the threshold: the single value, or the mean when several. */
  readonly compared: number | null;
  /** Mean per `condition` label when the values come from more than one condition. */
  readonly byCondition: Readonly<Record<string, number>>;
  readonly units: readonly string[];
}

export interface SuccessConditionResult {
  readonly metric: string;
  readonly operator: string;
  readonly threshold: number | RangeThreshold | null;
  readonly unit: string | null;
  readonly description: string;
  readonly observed: ObservedValue;
  readonly unitCheck: "match" | "mismatch" | "not_checked";
  readonly outcome: ConditionOutcome;
  readonly notes: readonly string[];
}

export interface FailureConditionResult {
  readonly condition: string;
  readonly interpretation: string;
  readonly status: "possibly_triggered" | "not_detected";
  /** Keywords of the condition found in the operator notes / summary. */
  readonly matchedKeywords: readonly string[];
  readonly keywords: readonly string[];
}

export type SignificanceStatus = "significant" | "not_significant" | "missing";

export interface SignificanceResult {
  readonly significanceLevel: number | null;
  readonly reportedPValue: number | null;
  readonly reportedTest: string | null;
  /** Reported p-value vs the significance level (p < alpha is significant). */
  readonly reported: SignificanceStatus;
  /** Recomputed p-value vs the significance level; "missing" when no recomputation was possible. */
  readonly recomputed: SignificanceStatus;
  readonly notes: readonly string[];
}

export interface RecomputationResult {
  readonly requestedTest: string | null;
  readonly test: TestName | null;
  readonly status: "computed" | "not_applicable" | "unsupported_test";
  readonly result: TestResult | null;
  /** What the test was computed on: metric and group labels (or table layout). */
  readonly basis: {
    readonly metric: string | null;
    readonly groups: readonly string[];
    readonly categories: readonly string[];
  } | null;
  /** Reported vs recomputed p-value comparison; null when either is missing. */
  readonly agreement: {
    readonly reported: number;
    readonly recomputed: number;
    readonly difference: number;
    readonly tolerance: number;
    readonly agrees: boolean;
  } | null;
  readonly reason: string | null;
}

export type Verdict = "criteria_met" | "criteria_not_met" | "indeterminate";

export interface AcceptanceEvaluation {
  readonly verdict: Verdict;
  readonly reasons: readonly string[];
  readonly successConditions: readonly SuccessConditionResult[];
  readonly failureConditions: readonly FailureConditionResult[];
  readonly significance: SignificanceResult;
  readonly recomputation: RecomputationResult;
  /** Flags for staff attention: unit mismatch, p-value disagreement, test name mismatch, ... */
  readonly flags: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Helpers.

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const key = (v: unknown): string => str(v).trim().toLowerCase();

/** Unit normalisation: NFKC (micro sign -> Greek mu), trimmed, inner whitespace removed. Case is kept (mM != mm). */
export function normaliseUnit(u: unknown): string {
  return str(u).normalize("NFKC").trim().replace(/\s+/g, "");
}

/** A finite number from a number or a numeric string; null otherwise. */
function toNumber(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

const meanOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function isRange(t: unknown): t is RangeThreshold {
  return (
    typeof t === "object" &&
    t !== null &&
    toNumber((t as { min?: unknown }).min) !== null &&
    toNumber((t as { max?: unknown }).max) !== null
  );
}

/** Relative tolerance for eq / neq on measured floating point values. */
export const EQ_RELATIVE_TOLERANCE = 1e-9;

function approxEqual(a: number, b: number): boolean {
  return Math.abs(a - b) <= EQ_RELATIVE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Compare an observed value with a threshold. between is inclusive (min <= v <= max); not_between
 * is its complement (v < min or v > max). eq / neq use a relative tolerance of 1e-9.
 * Returns null with a reason when the operator or threshold is invalid.
 */
export function compare(
  operator: string,
  observed: number,
  threshold: unknown,
): { ok: true; met: boolean } | { ok: false; reason: string } {
  const op = key(operator);
  if (op === "between" || op === "not_between") {
    if (!isRange(threshold)) return { ok: false, reason: `operator ${op} needs a {min, max} threshold` };
    const min = toNumber(threshold.min)!;
    const max = toNumber(threshold.max)!;
    if (min > max) return { ok: false, reason: `threshold min ${min} is greater than max ${max}` };
    const inside = observed >= min && observed <= max;
    return { ok: true, met: op === "between" ? inside : !inside };
  }
  const t = toNumber(threshold);
  if (t === null) return { ok: false, reason: `operator ${op || "(none)"} needs a numeric threshold` };
  switch (op) {
    case "gt":
      return { ok: true, met: observed > t };
    case "gte":
      return { ok: true, met: observed >= t };
    case "lt":
      return { ok: true, met: observed < t };
    case "lte":
      return { ok: true, met: observed <= t };
    case "eq":
      return { ok: true, met: approxEqual(observed, t) };
    case "neq":
      return { ok: true, met: !approxEqual(observed, t) };
    default:
      return { ok: false, reason: `unknown operator "${str(operator)}"` };
  }
}

interface CleanMeasurement {
  readonly metric: string;
  readonly metricKey: string;
  readonly value: number | null;
  readonly unit: string;
  readonly condition: string;
}

function cleanMeasurements(results: ResultsInput | null | undefined): CleanMeasurement[] {
  const raw = results?.structured_data?.measurements;
  if (!Array.isArray(raw)) return [];
  const out: CleanMeasurement[] = [];
  for (const m of raw as unknown[]) {
    if (typeof m !== "object" || m === null) continue;
    const r = m as Measurement;
    out.push({
      metric: str(r.metric).trim(),
      metricKey: key(r.metric),
      value: toNumber(r.value),
      unit: normaliseUnit(r.unit),
      condition: str(r.condition).trim(),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Success conditions.

function evaluateSuccess(cond: SuccessCondition, ms: readonly CleanMeasurement[]): SuccessConditionResult {
  const metric = str(cond?.metric).trim();
  const operator = str(cond?.operator).trim();
  const rawThreshold = cond?.threshold;
  const threshold: number | RangeThreshold | null = isRange(rawThreshold)
    ? { min: toNumber(rawThreshold.min)!, max: toNumber(rawThreshold.max)! }
    : toNumber(rawThreshold);
  const unit = normaliseUnit(cond?.unit) || null;
  const notes: string[] = [];
  const matching = ms.filter((m) => m.metricKey !== "" && m.metricKey === key(metric));
  const numeric = matching.filter((m) => m.value !== null);
  const values = numeric.map((m) => m.value!);
  const units = [...new Set(numeric.map((m) => m.unit))];
  const byCondGroups = new Map<string, number[]>();
  for (const m of numeric)
    byCondGroups.set(m.condition, [...(byCondGroups.get(m.condition) ?? []), m.value!]);
  const byCondition: Record<string, number> = {};
  if (byCondGroups.size > 1) for (const [c, vs] of byCondGroups) byCondition[c] = meanOf(vs);
  const compared = values.length > 0 ? meanOf(values) : null;
  const observed: ObservedValue = { count: values.length, values, compared, byCondition, units };
  const base = { metric, operator, threshold, unit, description: str(cond?.description), observed };

  if (matching.length > numeric.length) {
    notes.push(`${matching.length - numeric.length} measurement(s) of ${metric} have a non-numeric value`);
  }
  if (compared === null) {
    notes.push(metric ? `no numeric measurement for metric "${metric}"` : "success condition has no metric");
    return { ...base, unitCheck: "not_checked", outcome: "indeterminate", notes };
  }
  if (values.length > 1) notes.push(`${values.length} values: compared their mean`);
  if (byCondGroups.size > 1) {
    notes.push(`values pooled across ${byCondGroups.size} conditions; see per-condition means`);
  }

  let unitCheck: SuccessConditionResult["unitCheck"] = "not_checked";
  if (unit !== null) {
    const reported = units.filter((u) => u !== "");
    if (reported.some((u) => u !== unit)) {
      unitCheck = "mismatch";
      notes.push(
        `unit mismatch: criterion in "${unit}", measurements in ${reported.map((u) => `"${u}"`).join(", ")}`,
      );
      return { ...base, unitCheck, outcome: "indeterminate", notes };
    }
    if (reported.length < units.length) notes.push("some measurements report no unit; assumed to match");
    if (reported.length > 0) unitCheck = "match";
  }

  const cmp = compare(operator, compared, rawThreshold);
  if (!cmp.ok) {
    notes.push(cmp.reason);
    return { ...base, unitCheck, outcome: "indeterminate", notes };
  }
  return { ...base, unitCheck, outcome: cmp.met ? "met" : "not_met", notes };
}

// ---------------------------------------------------------------------------------------------
// Failure conditions: keyword heuristic.

const STOPWORDS = new Set(
  (
    "the a an and or of to in on at by for with from into than then that this these those is are was were be been " +
    "being not no any all some more less most least if when while which who whom whose what where there their " +
    "them they it its as per via such only also both each other same very can could should would may might must " +
    "will shall does did done has have had observed shows show showing result results experiment sample samples " +
    "value values condition conditions data significant significantly"
  ).split(" "),
);

/**
 * Keywords of a failure condition: lower-cased words of at least 4 letters (letters, digits, '-'),
 * not purely numeric, not in a small stop list. Keyword heuristic: a failure condition is
 * "possibly_triggered" when at least half of its keywords (and at least one; at least two when it has
 * four or more) occur as words in the operator notes or summary. No stemming, no negation handling:
 * it only points staff at conditions worth reading, and never decides the verdict alone.
 */
export function failureKeywords(text: string): string[] {
  const words =
    text
      .toLowerCase()
      .normalize("NFKC")
      .match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? [];
  const out: string[] = [];
  for (const w of words) {
    const t = w.replace(/-+$/, "");
    if (t.length < 4 || /^[\d.-]+$/.test(t) || STOPWORDS.has(t) || out.includes(t)) continue;
    out.push(t);
  }
  return out;
}

function evaluateFailure(fc: FailureCondition, haystack: Set<string>): FailureConditionResult {
  const condition = str(fc?.condition);
  const interpretation = str(fc?.interpretation);
  const keywords = failureKeywords(condition);
  const matchedKeywords = keywords.filter((k) => haystack.has(k));
  const needed = Math.max(keywords.length >= 4 ? 2 : 1, Math.ceil(keywords.length / 2));
  const triggered = keywords.length > 0 && matchedKeywords.length >= needed;
  return {
    condition,
    interpretation,
    status: triggered ? "possibly_triggered" : "not_detected",
    matchedKeywords,
    keywords,
  };
}

// ---------------------------------------------------------------------------------------------
// Recomputation.

/** Map a free-form test name to a supported test, or null. */
export function normaliseTestName(name: unknown): TestName | null {
  const k = key(name)
    .replace(/['\u2019]/g, "")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (
    [
      "t_test",
      "ttest",
      "t",
      "welch",
      "welch_t",
      "welch_t_test",
      "student_t",
      "students_t_test",
      "student_t_test",
      "two_sample_t_test",
    ].includes(k)
  )
    return "t_test";
  if (["anova", "one_way_anova", "oneway_anova", "f_test"].includes(k)) return "anova";
  if (
    [
      "mann_whitney",
      "mann_whitney_u",
      "mann_whitney_u_test",
      "mann_whitney_test",
      "wilcoxon_rank_sum",
      "wilcoxon_rank_sum_test",
      "mwu",
    ].includes(k)
  )
    return "mann_whitney";
  if (["chi_square", "chi_squared", "chi2", "chisq", "chi_square_test", "pearson_chi_square"].includes(k))
    return "chi_square";
  if (["fisher_exact", "fisher", "fishers_exact", "fisher_exact_test", "fishers_exact_test"].includes(k))
    return "fisher_exact";
  return null;
}

/** Units accepted as "count" for building a contingency table. */
export const COUNT_UNITS: ReadonlySet<string> = new Set([
  "count",
  "counts",
  "n",
  "number",
  "events",
  "cfu",
  "colonies",
  "cells",
  "individuals",
  "subjects",
]);

function groupByCondition(ms: readonly CleanMeasurement[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const m of ms) {
    if (m.value === null) continue;
    groups.set(m.condition, [...(groups.get(m.condition) ?? []), m.value]);
  }
  return groups;
}

/**
 * Metric used for group comparisons (t-test, ANOVA, Mann-Whitney): options.testMetric if given;
 * otherwise the first success-condition metric, then the first measured metric, whose numeric
 * measurements fall in enough `condition` groups (2 for two-group tests, 3+ for ANOVA).
 */
function chooseMetric(
  test: TestName,
  ms: readonly CleanMeasurement[],
  criteriaMetrics: readonly string[],
  forced: string | undefined,
): { metric: string; groups: Map<string, number[]> } | { reason: string } {
  const metricsInOrder = forced !== undefined ? [forced] : [...criteriaMetrics, ...ms.map((m) => m.metric)];
  const seen = new Set<string>();
  const minGroups = test === "anova" ? 3 : 2;
  let lastReason = "no measurements";
  for (const metric of metricsInOrder) {
    const k = key(metric);
    if (k === "" || seen.has(k)) continue;
    seen.add(k);
    const groups = groupByCondition(ms.filter((m) => m.metricKey === k));
    if (test === "anova" ? groups.size >= minGroups : groups.size === 2) return { metric, groups };
    lastReason =
      test === "anova"
        ? `metric "${metric}" has ${groups.size} condition group(s); ANOVA needs 3 or more`
        : `metric "${metric}" has ${groups.size} condition group(s); a two-group test needs exactly 2`;
  }
  return { reason: lastReason };
}

/**
 * Contingency table from count measurements. Expected shape: one measurement per cell with
 * `condition` = group (row), `metric` = category (column), `value` = count (non-negative integer).
 * Measurements whose unit is a count unit (COUNT_UNITS) are used; if none have one, all measurements
 * are used provided every value is a non-negative integer. Repeated (condition, metric) cells are
 * summed; absent cells count as 0 (noted). Rows and columns keep first-appearance order.
 */
export function buildContingencyTable(
  measurements: readonly Measurement[],
): { table: number[][]; rows: string[]; cols: string[]; notes: string[] } | { reason: string } {
  return contingency(cleanMeasurements({ structured_data: { measurements } }));
}

function contingency(
  all: readonly CleanMeasurement[],
): { table: number[][]; rows: string[]; cols: string[]; notes: string[] } | { reason: string } {
  const notes: string[] = [];
  let ms = all.filter((m) => COUNT_UNITS.has(m.unit.toLowerCase()));
  if (ms.length === 0) ms = all.slice();
  if (ms.length === 0) return { reason: "no count measurements" };
  if (ms.some((m) => m.value === null || !Number.isInteger(m.value) || m.value < 0)) {
    return {
      reason:
        "count measurements must be non-negative integers (metric = category, condition = group, value = count)",
    };
  }
  const rows: string[] = [];
  const cols: string[] = [];
  const cells = new Map<string, number>();
  for (const m of ms) {
    if (!rows.includes(m.condition)) rows.push(m.condition);
    if (!cols.includes(m.metric)) cols.push(m.metric);
    const ck = JSON.stringify([m.condition, m.metric]);
    if (cells.has(ck)) notes.push(`repeated cell (${m.condition}, ${m.metric}) summed`);
    cells.set(ck, (cells.get(ck) ?? 0) + m.value!);
  }
  if (rows.length < 2 || cols.length < 2) {
    return {
      reason: `contingency table is ${rows.length} x ${cols.length}; needs at least 2 x 2 (condition x metric)`,
    };
  }
  const table = rows.map((r) =>
    cols.map((c) => {
      const v = cells.get(JSON.stringify([r, c]));
      if (v === undefined) notes.push(`missing cell (${r}, ${c}) counted as 0`);
      return v ?? 0;
    }),
  );
  return { table, rows, cols, notes };
}

function recompute(
  test: TestName,
  ms: readonly CleanMeasurement[],
  criteriaMetrics: readonly string[],
  options: EvaluateOptions,
): { outcome: TestOutcome; basis: RecomputationResult["basis"]; extraNotes: string[] } {
  if (test === "chi_square" || test === "fisher_exact") {
    const t = contingency(ms);
    if ("reason" in t) return { outcome: { ok: false, reason: t.reason }, basis: null, extraNotes: [] };
    const outcome = test === "chi_square" ? chiSquareTest(t.table) : fisherExact(t.table);
    return { outcome, basis: { metric: null, groups: t.rows, categories: t.cols }, extraNotes: t.notes };
  }
  const chosen = chooseMetric(test, ms, criteriaMetrics, options.testMetric);
  if ("reason" in chosen)
    return { outcome: { ok: false, reason: chosen.reason }, basis: null, extraNotes: [] };
  const labels = [...chosen.groups.keys()];
  const groups = [...chosen.groups.values()];
  const basis = { metric: chosen.metric, groups: labels, categories: [] };
  const outcome =
    test === "anova"
      ? oneWayAnova(groups)
      : test === "t_test"
        ? tTest(groups[0]!, groups[1]!, options.tTestVariance === "student")
        : mannWhitney(groups[0]!, groups[1]!);
  return { outcome, basis, extraNotes: [] };
}

const significance = (p: number | null, alpha: number | null): SignificanceStatus =>
  p === null || alpha === null ? "missing" : p < alpha ? "significant" : "not_significant";

// ---------------------------------------------------------------------------------------------
// Entry point.

/**
 * Evaluate acceptance criteria against results.
 *
 * Verdict rules, in order:
 * - criteria_not_met if any success condition is not_met, or if the p-value used for the decision
 *   (recomputed when available, else reported) is not below the significance level;
 * - indeterminate if any success condition is indeterminate (missing metric, unit mismatch, bad
 *   threshold), if a significance level is set but no p-value is available, if reported and
 *   recomputed p-values disagree, or if a failure condition is possibly_triggered (needs review);
 * - criteria_met otherwise (including when there are no success conditions but the statistics pass;
 *   with no conditions and no statistical requirement at all the verdict is indeterminate).
 */
export function evaluateAcceptance(
  criteria: AcceptanceCriteria | null | undefined,
  results: ResultsInput | null | undefined,
  options: EvaluateOptions = {},
): AcceptanceEvaluation {
  const ms = cleanMeasurements(results);
  const flags: string[] = [];
  const notMet: string[] = [];
  const undetermined: string[] = [];

  // Success conditions.
  const rawSuccess = Array.isArray(criteria?.success_conditions) ? criteria.success_conditions : [];
  const successConditions = rawSuccess.map((c) => evaluateSuccess(c ?? {}, ms));
  for (const s of successConditions) {
    const label = `${s.metric || "(no metric)"} ${s.operator} ${JSON.stringify(s.threshold)}`;
    if (s.outcome === "not_met")
      notMet.push(`success condition not met: ${label} (observed ${s.observed.compared})`);
    if (s.outcome === "indeterminate")
      undetermined.push(`success condition indeterminate: ${label}: ${s.notes.at(-1) ?? ""}`);
    if (s.unitCheck === "mismatch") flags.push(`unit mismatch for ${s.metric}`);
  }

  // Failure conditions.
  const text = `${str(results?.operator_notes)} ${str(results?.summary)}`;
  const haystack = new Set(failureKeywords(text));
  const rawFailure = Array.isArray(criteria?.failure_conditions) ? criteria.failure_conditions : [];
  const failureConditions = rawFailure.map((f) => evaluateFailure(f ?? {}, haystack));
  for (const f of failureConditions) {
    if (f.status === "possibly_triggered") {
      undetermined.push(
        `failure condition possibly triggered (keywords ${f.matchedKeywords.join(", ")}): ${f.condition}`,
      );
    }
  }

  // Statistics.
  const req = criteria?.statistical_requirements ?? null;
  const alphaRaw = toNumber(req?.significance_level);
  const alpha = alphaRaw !== null && alphaRaw > 0 && alphaRaw < 1 ? alphaRaw : null;
  const sigNotes: string[] = [];
  if (alphaRaw !== null && alpha === null)
    sigNotes.push(`significance level ${alphaRaw} is not in (0, 1); ignored`);
  const stats = results?.structured_data?.statistics ?? null;
  const reportedRaw = toNumber(stats?.p_value);
  const reportedP = reportedRaw !== null && reportedRaw >= 0 && reportedRaw <= 1 ? reportedRaw : null;
  if (reportedRaw !== null && reportedP === null)
    sigNotes.push(`reported p-value ${reportedRaw} is not in [0, 1]; ignored`);
  const reportedTest = str(stats?.test_used).trim() || null;
  const requestedTest = str(req?.statistical_test).trim() || null;
  const test = normaliseTestName(requestedTest) ?? normaliseTestName(reportedTest);
  if (
    requestedTest !== null &&
    reportedTest !== null &&
    normaliseTestName(requestedTest) !== normaliseTestName(reportedTest)
  ) {
    flags.push(`test used ("${reportedTest}") differs from the required test ("${requestedTest}")`);
  }

  let recomputation: RecomputationResult;
  if (test === null) {
    recomputation = {
      requestedTest: requestedTest ?? reportedTest,
      test: null,
      status: (requestedTest ?? reportedTest) ? "unsupported_test" : "not_applicable",
      result: null,
      basis: null,
      agreement: null,
      reason:
        (requestedTest ?? reportedTest)
          ? `unsupported test "${requestedTest ?? reportedTest}"`
          : "no statistical test named",
    };
  } else {
    const { outcome, basis, extraNotes } = recompute(
      test,
      ms,
      successConditions.map((s) => s.metric),
      options,
    );
    if (!outcome.ok) {
      recomputation = {
        requestedTest: requestedTest ?? reportedTest,
        test,
        status: "not_applicable",
        result: null,
        basis,
        agreement: null,
        reason: outcome.reason,
      };
    } else {
      const result: TestResult = { ...outcome.result, notes: [...outcome.result.notes, ...extraNotes] };
      let agreement: RecomputationResult["agreement"] = null;
      if (reportedP !== null && Number.isFinite(result.pValue)) {
        const absTol = options.pValueAbsoluteTolerance ?? 0.001;
        const relTol = options.pValueRelativeTolerance ?? 0.05;
        const tolerance = Math.max(absTol, relTol * Math.max(reportedP, result.pValue));
        const difference = Math.abs(reportedP - result.pValue);
        agreement = {
          reported: reportedP,
          recomputed: result.pValue,
          difference,
          tolerance,
          agrees: difference <= tolerance,
        };
        if (!agreement.agrees) {
          flags.push(
            `reported p-value ${reportedP} disagrees with recomputed ${result.pValue.toPrecision(4)} (${result.method})`,
          );
          undetermined.push(
            `reported p-value ${reportedP} disagrees with recomputed ${result.pValue.toPrecision(4)}`,
          );
        }
      }
      recomputation = {
        requestedTest: requestedTest ?? reportedTest,
        test,
        status: "computed",
        result,
        basis,
        agreement,
        reason: null,
      };
    }
  }

  const recomputedP = recomputation.result?.pValue ?? null;
  const sig: SignificanceResult = {
    significanceLevel: alpha,
    reportedPValue: reportedP,
    reportedTest,
    reported: significance(reportedP, alpha),
    recomputed: significance(
      recomputedP !== null && Number.isFinite(recomputedP) ? recomputedP : null,
      alpha,
    ),
    notes: sigNotes,
  };
  if (alpha !== null) {
    const decisive = sig.recomputed !== "missing" ? sig.recomputed : sig.reported;
    const source = sig.recomputed !== "missing" ? "recomputed" : "reported";
    if (decisive === "missing")
      undetermined.push(`significance level ${alpha} set but no p-value reported or recomputable`);
    if (decisive === "not_significant")
      notMet.push(`${source} p-value is not below the significance level ${alpha}`);
    if (sig.reported !== "missing" && sig.recomputed !== "missing" && sig.reported !== sig.recomputed) {
      flags.push(`reported result is ${sig.reported} but the recomputed one is ${sig.recomputed}`);
    }
  }

  let verdict: Verdict;
  const reasons: string[] = [];
  if (notMet.length > 0) {
    verdict = "criteria_not_met";
    reasons.push(...notMet, ...undetermined);
  } else if (undetermined.length > 0) {
    verdict = "indeterminate";
    reasons.push(...undetermined);
  } else if (successConditions.length === 0 && alpha === null) {
    verdict = "indeterminate";
    reasons.push("no success conditions and no significance level to evaluate");
  } else {
    verdict = "criteria_met";
    reasons.push("all success conditions met" + (alpha !== null ? ` and p-value below ${alpha}` : ""));
  }

  return { verdict, reasons, successConditions, failureConditions, significance: sig, recomputation, flags };
}
