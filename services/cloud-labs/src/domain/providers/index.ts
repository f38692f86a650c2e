export {
  EXPERIMENT_TYPE_DESCRIPTIONS,
  PROVIDERS,
  findProvider,
  supportedTypes,
  type SupportedType,
} from "./catalog.js";
export { assayWarnings, capabilityProblems, estimateCost, type CostEstimate } from "./capabilities.js";
