import { cloudLabsSettingsFromEnv } from "./config.js";
import { LlmIntakeInterpreter, cloudLabsLlmConfig } from "./interpret-llm/index.js";
import type { CloudLabsServiceOptions } from "./service.js";

/**
 * Cloud labs' options from the environment: sandbox timing, polling and the HTTP lab adapter
 * (config.ts), and the language model of POST /cloud-labs/interpret when PETRI_CLOUDLABS_LLM_*
 * are set (interpret-llm/config.ts). Throws service-kit's ConfigError naming every bad variable
 * (never a key's value); call it under exitOnConfigError.
 */
export function cloudLabsOptionsFromEnv(
  env: Record<string, string | undefined> = process.env,
): CloudLabsServiceOptions {
  const llm = cloudLabsLlmConfig(env);
  return {
    settings: cloudLabsSettingsFromEnv(env),
    ...(llm
      ? {
          interpreter: new LlmIntakeInterpreter(llm),
          // The model's whole budget (every try) plus a margin: then the rules answer instead.
          interpretTimeoutMs: llm.timeoutMs * (llm.maxRetries + 1) + 1_000,
        }
      : {}),
  };
}
