export { ApiKey } from "./api-key.js";
export {
  MAX_RETRIES_LIMIT,
  apiKeySchema,
  httpBaseUrlSchema,
  llmPairingProblems,
  maxRetriesSchema,
  modelNameSchema,
} from "./env.js";
export {
  type ChatMessage,
  type JsonReplyCheck,
  MAX_PROBLEMS_REPORTED,
  buildRepairMessages,
  checkJsonReply,
  summariseProblems,
} from "./json-reply.js";
export { LlmError, type LlmErrorCode } from "./llm-error.js";
export {
  DEFAULT_LLM_MAX_RESPONSE_BYTES,
  type JsonCompletion,
  type JsonCompletionRequest,
  OpenAiCompatibleJsonClient,
  type OpenAiCompatibleJsonClientOptions,
} from "./openai-compatible-json-client.js";
export { ResponseTooLargeError, cappedFetch, isResponseTooLarge, readCappedText } from "./response-cap.js";
export {
  BASE_RETRY_DELAY_MS,
  DEFAULT_MAX_RETRY_DELAY_MS,
  type Sleep,
  abortReason,
  abortableSleep,
  delayBeforeRetry,
  retryAfterMs,
} from "./retry.js";
