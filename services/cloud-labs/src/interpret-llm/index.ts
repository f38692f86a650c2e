export {
  type CloudLabsLlmConfig,
  DEFAULT_CLOUDLABS_LLM_MAX_RETRIES,
  DEFAULT_CLOUDLABS_LLM_TIMEOUT_MS,
  cloudLabsLlmConfig,
  cloudLabsLlmEnvSchema,
} from "./config.js";
export { LlmIntakeInterpreter, type LlmIntakeInterpreterOptions } from "./llm-intake-interpreter.js";
