export type * from "./types.js";
export type { Violation } from "./violation.js";
export { toAutoprotocol, translateToAutoprotocol, MAX_AUTOPROTOCOL_INSTRUCTIONS } from "./to-autoprotocol.js";
export type { TranslationResult } from "./protocol-builder.js";
export { BINDING_PREFIX, RESOURCE_PREFIX } from "./protocol-builder.js";
export { AUTOPROTOCOL_SCHEMA } from "./schema-document.js";
export { schemaViolations } from "./schema.js";
export { checkAutoprotocol, CHECKER_RULES, type CheckerRule } from "./checker.js";
export {
  AutoprotocolTranslationError,
  ProtocolNotExpressibleError,
  ProtocolTooLargeError,
} from "./errors.js";
export { CONTAINER_TYPES, type ContainerType } from "./containers.js";
