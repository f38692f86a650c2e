// Recomputing the requested statistical test from the delivered measurements.
import { contingency } from "./contingency.js";
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
import { normaliseTestName } from "./test-names.js";
import type { EvaluateOptions, RecomputationResult } from "./types.js";
import { key, type CleanMeasurement } from "./values.js";

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

/** What the evaluation found that staff must see (flags) or that blocks a verdict. */
export interface Concerns {
  readonly flags: string[];
  readonly notMet: string[];
  readonly undetermined: string[];
}

export interface TestRequest {
  /** The test the criteria require, as written. */
  readonly requestedTest: string | null;
  /** The test the lab reports having used, as written. */
  readonly reportedTest: string | null;
  readonly reportedP: number | null;
}

/**
 * Recomputes the required (else the reported) test and compares its p-value with the reported
 * one; a disagreement beyond the tolerance is flagged and leaves the verdict undetermined.
 */
export function recomputation(
  request: TestRequest,
  ms: readonly CleanMeasurement[],
  criteriaMetrics: readonly string[],
  options: EvaluateOptions,
  concerns: Concerns,
): RecomputationResult {
  const { requestedTest, reportedTest } = request;
  const named = requestedTest ?? reportedTest;
  const test = normaliseTestName(requestedTest) ?? normaliseTestName(reportedTest);
  if (test === null) {
    return {
      requestedTest: named,
      test: null,
      status: named ? "unsupported_test" : "not_applicable",
      result: null,
      basis: null,
      agreement: null,
      reason: named ? `unsupported test "${named}"` : "no statistical test named",
    };
  }
  const { outcome, basis, extraNotes } = recompute(test, ms, criteriaMetrics, options);
  if (!outcome.ok) {
    return {
      requestedTest: named,
      test,
      status: "not_applicable",
      result: null,
      basis,
      agreement: null,
      reason: outcome.reason,
    };
  }
  const result: TestResult = { ...outcome.result, notes: [...outcome.result.notes, ...extraNotes] };
  const agreement = pValueAgreement(request.reportedP, result, options, concerns);
  return { requestedTest: named, test, status: "computed", result, basis, agreement, reason: null };
}

function pValueAgreement(
  reportedP: number | null,
  result: TestResult,
  options: EvaluateOptions,
  concerns: Concerns,
): RecomputationResult["agreement"] {
  if (reportedP === null || !Number.isFinite(result.pValue)) return null;
  const absTol = options.pValueAbsoluteTolerance ?? 0.001;
  const relTol = options.pValueRelativeTolerance ?? 0.05;
  const tolerance = Math.max(absTol, relTol * Math.max(reportedP, result.pValue));
  const difference = Math.abs(reportedP - result.pValue);
  const agreement = {
    reported: reportedP,
    recomputed: result.pValue,
    difference,
    tolerance,
    agrees: difference <= tolerance,
  };
  if (!agreement.agrees) {
    concerns.flags.push(
      `reported p-value ${reportedP} disagrees with recomputed ${result.pValue.toPrecision(4)} (${result.method})`,
    );
    concerns.undetermined.push(
      `reported p-value ${reportedP} disagrees with recomputed ${result.pValue.toPrecision(4)}`,
    );
  }
  return agreement;
}
