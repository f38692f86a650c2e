export { SLL_FUNCTIONS, SLL_OPERATIONS, SLL_UNITS } from "./allow-list.js";
export { CONTAINER_MODELS } from "./catalog.js";
export { checkSllProtocol, type SllProblem } from "./check.js";
export { SllNotExpressibleError, SllRenderError } from "./errors.js";
export { wlString } from "./escape.js";
export { MAX_GROWTH_READS } from "./builders/growth.js";
export { renderSll } from "./render.js";
export { SLL_LIMITS, toSll } from "./to-sll.js";
export {
  SLL_FORMAT,
  type SllFunction,
  type SllOperation,
  type SllProtocol,
  type SllProtocolBody,
  type SllQuantity,
  type SllStep,
  type SllValue,
} from "./types.js";
