export type {
  AcceptanceCriteria,
  AcceptanceEvaluation,
  ConditionOutcome,
  EvaluateOptions,
  FailureCondition,
  FailureConditionResult,
  Measurement,
  ObservedValue,
  Operator,
  RangeThreshold,
  RecomputationResult,
  ResultsInput,
  SignificanceResult,
  SignificanceStatus,
  StatisticalRequirements,
  StructuredData,
  SuccessCondition,
  SuccessConditionResult,
  Verdict,
} from "./types.js";
export { OPERATORS } from "./types.js";
export { evaluateAcceptance } from "./evaluate.js";
export { compare, EQ_RELATIVE_TOLERANCE } from "./compare.js";
export { buildContingencyTable, COUNT_UNITS } from "./contingency.js";
export { failureKeywords } from "./failure-conditions.js";
export { normaliseTestName } from "./test-names.js";
export { normaliseUnit } from "./values.js";
export type { TestName, TestOutcome, TestResult } from "./stats.js";
export {
  chiSquareTest,
  FISHER_RELATIVE_TOLERANCE,
  fisherExact,
  MANN_WHITNEY_EXACT_LIMIT,
  mannWhitney,
  mannWhitneyCounts,
  oneWayAnova,
  tTest,
} from "./stats.js";
