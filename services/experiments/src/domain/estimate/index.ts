export type { PackageLevel, TypeCostModel, WorkDimension, WorkDimensions } from "./model.js";
export {
  COUNT_LIMITS,
  CUSTOM_TEMPLATE_TURNAROUND_DAYS,
  DEFAULT_REPLICATES,
  L2_EXTRA_DAYS,
  MAX_WORK_MULTIPLE,
  OPERATOR_AVAILABILITY_THRESHOLDS,
  PACKAGE_LEVEL_MULTIPLIER,
  PACKAGE_LEVELS,
  PLATFORM_FEE_RATE,
  PRIORITY_MULTIPLIER,
  PRIVACY_PREMIUM_RATE,
  PRIVATE_PREMIUM_RATE_BY_PACKAGE,
  TURNAROUND_DAYS_PER_EXTRA_BATCH,
  TURNAROUND_MAX_EXTRA_DAYS,
  TYPE_COST_MODELS,
  WORK_FIXED_SHARE,
} from "./model.js";
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
