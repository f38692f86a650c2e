// The significance requirement: the significance level, the reported p-value and test, and the
// decision they support (recomputed p-value first, reported one otherwise).
import type { Concerns, TestRequest } from "./recompute.js";
import { normaliseTestName } from "./test-names.js";
import type {
  AcceptanceCriteria,
  RecomputationResult,
  ResultsInput,
  SignificanceResult,
  SignificanceStatus,
} from "./types.js";
import { str, toNumber } from "./values.js";

export interface StatisticsRead extends TestRequest {
  /** The significance level when it lies in (0, 1). */
  readonly alpha: number | null;
  /** Why a value sent was ignored. */
  readonly notes: string[];
}

/** Reads the statistical requirement and reported statistics; flags a test other than required. */
export function readStatistics(
  criteria: AcceptanceCriteria | null | undefined,
  results: ResultsInput | null | undefined,
  concerns: Concerns,
): StatisticsRead {
  const req = criteria?.statistical_requirements ?? null;
  const alphaRaw = toNumber(req?.significance_level);
  const alpha = alphaRaw !== null && alphaRaw > 0 && alphaRaw < 1 ? alphaRaw : null;
  const notes: string[] = [];
  if (alphaRaw !== null && alpha === null)
    notes.push(`significance level ${alphaRaw} is not in (0, 1); ignored`);
  const stats = results?.structured_data?.statistics ?? null;
  const reportedRaw = toNumber(stats?.p_value);
  const reportedP = reportedRaw !== null && reportedRaw >= 0 && reportedRaw <= 1 ? reportedRaw : null;
  if (reportedRaw !== null && reportedP === null)
    notes.push(`reported p-value ${reportedRaw} is not in [0, 1]; ignored`);
  const reportedTest = str(stats?.test_used).trim() || null;
  const requestedTest = str(req?.statistical_test).trim() || null;
  if (
    requestedTest !== null &&
    reportedTest !== null &&
    normaliseTestName(requestedTest) !== normaliseTestName(reportedTest)
  ) {
    concerns.flags.push(`test used ("${reportedTest}") differs from the required test ("${requestedTest}")`);
  }
  return { alpha, reportedP, reportedTest, requestedTest, notes };
}

const significance = (p: number | null, alpha: number | null): SignificanceStatus =>
  p === null || alpha === null ? "missing" : p < alpha ? "significant" : "not_significant";

/** Significance of the reported and recomputed p-values, and what it means for the verdict. */
export function significanceResult(
  statistics: StatisticsRead,
  recomputation: RecomputationResult,
  concerns: Concerns,
): SignificanceResult {
  const { alpha, reportedP } = statistics;
  const recomputedP = recomputation.result?.pValue ?? null;
  const sig: SignificanceResult = {
    significanceLevel: alpha,
    reportedPValue: reportedP,
    reportedTest: statistics.reportedTest,
    reported: significance(reportedP, alpha),
    recomputed: significance(
      recomputedP !== null && Number.isFinite(recomputedP) ? recomputedP : null,
      alpha,
    ),
    notes: statistics.notes,
  };
  if (alpha !== null) {
    const decisive = sig.recomputed !== "missing" ? sig.recomputed : sig.reported;
    const source = sig.recomputed !== "missing" ? "recomputed" : "reported";
    if (decisive === "missing")
      concerns.undetermined.push(`significance level ${alpha} set but no p-value reported or recomputable`);
    if (decisive === "not_significant")
      concerns.notMet.push(`${source} p-value is not below the significance level ${alpha}`);
    if (sig.reported !== "missing" && sig.recomputed !== "missing" && sig.reported !== sig.recomputed) {
      concerns.flags.push(`reported result is ${sig.reported} but the recomputed one is ${sig.recomputed}`);
    }
  }
  return sig;
}
