// Automatic evaluation of a request's acceptance criteria against delivered results, for staff
// dispute review. Pure: no I/O, never throws on malformed input (every problem becomes a note or an
// "indeterminate" outcome). The verdict is advisory; staff decide the dispute.
import { evaluateFailure, failureKeywords } from "./failure-conditions.js";
import { recomputation, type Concerns } from "./recompute.js";
import { readStatistics, significanceResult } from "./significance.js";
import { evaluateSuccess } from "./success-conditions.js";
import type {
  AcceptanceCriteria,
  AcceptanceEvaluation,
  EvaluateOptions,
  FailureConditionResult,
  ResultsInput,
  SuccessConditionResult,
  Verdict,
} from "./types.js";
import { cleanMeasurements, str, type CleanMeasurement } from "./values.js";

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
  const concerns: Concerns = { flags: [], notMet: [], undetermined: [] };
  const successConditions = successConditionResults(criteria, ms, concerns);
  const failureConditions = failureConditionResults(criteria, results, concerns);
  const statistics = readStatistics(criteria, results, concerns);
  const recomputed = recomputation(
    statistics,
    ms,
    successConditions.map((s) => s.metric),
    options,
    concerns,
  );
  const significance = significanceResult(statistics, recomputed, concerns);
  const { verdict, reasons } = verdictOf(concerns, successConditions.length, statistics.alpha);
  return {
    verdict,
    reasons,
    successConditions,
    failureConditions,
    significance,
    recomputation: recomputed,
    flags: concerns.flags,
  };
}

function successConditionResults(
  criteria: AcceptanceCriteria | null | undefined,
  ms: readonly CleanMeasurement[],
  concerns: Concerns,
): SuccessConditionResult[] {
  const raw = Array.isArray(criteria?.success_conditions) ? criteria.success_conditions : [];
  const results = raw.map((c) => evaluateSuccess(c ?? {}, ms));
  for (const s of results) {
    const label = `${s.metric || "(no metric)"} ${s.operator} ${JSON.stringify(s.threshold)}`;
    if (s.outcome === "not_met")
      concerns.notMet.push(`success condition not met: ${label} (observed ${s.observed.compared})`);
    if (s.outcome === "indeterminate")
      concerns.undetermined.push(`success condition indeterminate: ${label}: ${s.notes.at(-1) ?? ""}`);
    if (s.unitCheck === "mismatch") concerns.flags.push(`unit mismatch for ${s.metric}`);
  }
  return results;
}

function failureConditionResults(
  criteria: AcceptanceCriteria | null | undefined,
  results: ResultsInput | null | undefined,
  concerns: Concerns,
): FailureConditionResult[] {
  const text = `${str(results?.operator_notes)} ${str(results?.summary)}`;
  const haystack = new Set(failureKeywords(text));
  const raw = Array.isArray(criteria?.failure_conditions) ? criteria.failure_conditions : [];
  const evaluated = raw.map((f) => evaluateFailure(f ?? {}, haystack));
  for (const f of evaluated) {
    if (f.status === "possibly_triggered") {
      concerns.undetermined.push(
        `failure condition possibly triggered (keywords ${f.matchedKeywords.join(", ")}): ${f.condition}`,
      );
    }
  }
  return evaluated;
}

function verdictOf(
  concerns: Concerns,
  successConditionCount: number,
  alpha: number | null,
): { verdict: Verdict; reasons: string[] } {
  const { notMet, undetermined } = concerns;
  if (notMet.length > 0) return { verdict: "criteria_not_met", reasons: [...notMet, ...undetermined] };
  if (undetermined.length > 0) return { verdict: "indeterminate", reasons: [...undetermined] };
  if (successConditionCount === 0 && alpha === null) {
    return {
      verdict: "indeterminate",
      reasons: ["no success conditions and no significance level to evaluate"],
    };
  }
  return {
    verdict: "criteria_met",
    reasons: ["all success conditions met" + (alpha !== null ? ` and p-value below ${alpha}` : "")],
  };
}
