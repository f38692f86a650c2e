// The shapes of acceptance evaluation: the criteria and results it reads (docs/api.md "Acceptance
// criteria" and "Results"), and the evaluation it returns.
import type { TestName, TestResult } from "./stats.js";

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
