// The cost model is public as a whole: docs/estimates.md explains every number in it.
export * from "./model.js";
export type { EstimateInput } from "./input.js";
export {
  DEFAULT_ESTIMATE_INPUT,
  estimateInputFrom,
  parseExperimentType,
  parsePackageLevel,
  toCount,
} from "./input.js";
export type { CostBreakdown, EstimateCents, EstimateContext, ExperimentEstimate } from "./estimate.js";
export {
  centsToUsd,
  estimateCents,
  estimateExperiment,
  operatorAvailability,
  privacyPremiumRate,
  usdToCents,
} from "./estimate.js";
