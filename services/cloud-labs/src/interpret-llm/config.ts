/**
 * The language model POST /cloud-labs/interpret may use, from the environment. Nothing is
 * configured by default: interpret then answers with the rules interpreter alone.
 *
 *   PETRI_CLOUDLABS_LLM_BASE_URL     OpenAI-compatible endpoint up to /chat/completions,
 *                                    e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1
 *   PETRI_CLOUDLABS_LLM_MODEL        model name; the LLM is used only when this and the base URL are set
 *   PETRI_CLOUDLABS_LLM_API_KEY      optional (local servers need none); never logged or echoed
 *   PETRI_CLOUDLABS_LLM_TIMEOUT_MS   per request, default 15000 (a caller waits for the answer)
 *   PETRI_CLOUDLABS_LLM_MAX_RETRIES  retries after 429/5xx/connection failures, 0-10, default 1
 */
import {
  type ApiKey,
  apiKeySchema,
  httpBaseUrlSchema,
  llmPairingProblems,
  maxRetriesSchema,
  modelNameSchema,
} from "@petri/llm";
import { loadConfig, millisecondsSchema } from "@petri/service-kit";
import { z } from "zod";

const PREFIX = "PETRI_CLOUDLABS_LLM";

export const DEFAULT_CLOUDLABS_LLM_TIMEOUT_MS = 15_000;
export const DEFAULT_CLOUDLABS_LLM_MAX_RETRIES = 1;

export const cloudLabsLlmEnvSchema = z
  .object({
    PETRI_CLOUDLABS_LLM_BASE_URL: httpBaseUrlSchema.optional(),
    PETRI_CLOUDLABS_LLM_MODEL: modelNameSchema.optional(),
    PETRI_CLOUDLABS_LLM_API_KEY: apiKeySchema.optional(),
    PETRI_CLOUDLABS_LLM_TIMEOUT_MS: millisecondsSchema
      .pipe(z.number().max(600_000, "must be at most 600000 (10 minutes)"))
      .default(DEFAULT_CLOUDLABS_LLM_TIMEOUT_MS),
    PETRI_CLOUDLABS_LLM_MAX_RETRIES: maxRetriesSchema.default(DEFAULT_CLOUDLABS_LLM_MAX_RETRIES),
  })
  // Each issue is reported on the variable that IS set: service-kit reports an issue on an
  // unset variable as plainly "required", which would hide why.
  .superRefine((env, ctx) => {
    const llm = {
      baseUrl: env.PETRI_CLOUDLABS_LLM_BASE_URL,
      model: env.PETRI_CLOUDLABS_LLM_MODEL,
      apiKey: env.PETRI_CLOUDLABS_LLM_API_KEY,
    };
    for (const [variable, message] of llmPairingProblems(PREFIX, llm))
      ctx.addIssue({ code: "custom", path: [variable], message });
  });

export interface CloudLabsLlmConfig {
  baseUrl: string;
  model: string;
  apiKey?: ApiKey;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * The interpret LLM's settings, or undefined when none is configured. Throws service-kit's
 * ConfigError listing every problem (never quoting the key).
 */
export function cloudLabsLlmConfig(
  env: Record<string, string | undefined> = process.env,
): CloudLabsLlmConfig | undefined {
  const parsed = loadConfig(cloudLabsLlmEnvSchema, env);
  if (!parsed.PETRI_CLOUDLABS_LLM_BASE_URL || !parsed.PETRI_CLOUDLABS_LLM_MODEL) return undefined;
  return {
    baseUrl: parsed.PETRI_CLOUDLABS_LLM_BASE_URL,
    model: parsed.PETRI_CLOUDLABS_LLM_MODEL,
    ...(parsed.PETRI_CLOUDLABS_LLM_API_KEY ? { apiKey: parsed.PETRI_CLOUDLABS_LLM_API_KEY } : {}),
    timeoutMs: parsed.PETRI_CLOUDLABS_LLM_TIMEOUT_MS,
    maxRetries: parsed.PETRI_CLOUDLABS_LLM_MAX_RETRIES,
  };
}
