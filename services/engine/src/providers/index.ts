export {
  ApiKey,
  type EngineProviderConfig,
  type ConfiguredProviders,
  type EuropePmcProviderConfig,
  type LlmProviderConfig,
  createProviders,
  engineProviderEnvSchema,
  loadEngineProviderConfig,
} from "./config.js";
export {
  EuropePmcLiterature,
  type EuropePmcLiteratureOptions,
  type RejectionReason,
} from "./literature/europe-pmc-literature.js";
export {
  OpenAiCompatibleWriter,
  type OpenAiCompatibleWriterOptions,
} from "./llm/openai-compatible-writer.js";
