/**
 * Which providers the engine uses, from the environment. Nothing is configured by default:
 * the engine then runs its offline rules only and calls no network service.
 *
 *   PETRI_ENGINE_LLM_BASE_URL          OpenAI-compatible endpoint up to /chat/completions,
 *                                e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1
 *   PETRI_ENGINE_LLM_MODEL             model name; the LLM is used only when this and the base URL are set
 *   PETRI_ENGINE_LLM_API_KEY           optional (local servers need none); never logged or echoed
 *   PETRI_ENGINE_LLM_TIMEOUT_MS        per request, default 30000
 *   PETRI_ENGINE_LLM_MAX_RETRIES       retries after 429/5xx/connection failures, 0-10, default 2
 *   PETRI_ENGINE_LITERATURE            "none" (default) or "europepmc"
 *   PETRI_ENGINE_EUROPEPMC_BASE_URL    default https://www.ebi.ac.uk/europepmc/webservices/rest
 *   PETRI_ENGINE_DOI_BASE_URL          default https://doi.org
 *   PETRI_ENGINE_CROSSREF_BASE_URL     default https://api.crossref.org
 *   PETRI_ENGINE_CONTACT_EMAIL         required with europepmc: sent as mailto in the User-Agent
 *   PETRI_ENGINE_LITERATURE_TIMEOUT_MS per request, default 10000
 */
import {
  ApiKey,
  apiKeySchema,
  httpBaseUrlSchema,
  llmPairingProblems,
  maxRetriesSchema,
  modelNameSchema,
} from "@petri/llm";
import { loadConfig, millisecondsSchema } from "@petri/service-kit";
import { z } from "zod";
import type { HypothesisWriter, LiteratureProvider } from "../domain/generation.js";
import { OpenAiCompatibleWriter } from "./llm/openai-compatible-writer.js";
import { EuropePmcLiterature } from "./literature/europe-pmc-literature.js";

export { ApiKey };

export const DEFAULT_EUROPEPMC_BASE_URL = "https://www.ebi.ac.uk/europepmc/webservices/rest";
export const DEFAULT_DOI_BASE_URL = "https://doi.org";
export const DEFAULT_CROSSREF_BASE_URL = "https://api.crossref.org";

const timeoutSchema = millisecondsSchema.pipe(z.number().max(600_000, "must be at most 600000 (10 minutes)"));

export const engineProviderEnvSchema = z
  .object({
    PETRI_ENGINE_LLM_BASE_URL: httpBaseUrlSchema.optional(),
    PETRI_ENGINE_LLM_API_KEY: apiKeySchema.optional(),
    PETRI_ENGINE_LLM_MODEL: modelNameSchema.optional(),
    PETRI_ENGINE_LLM_TIMEOUT_MS: timeoutSchema.default(30_000),
    PETRI_ENGINE_LLM_MAX_RETRIES: maxRetriesSchema.default(2),
    PETRI_ENGINE_LITERATURE: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(["none", "europepmc"], { error: 'must be "none" or "europepmc"' }))
      .default("none"),
    PETRI_ENGINE_EUROPEPMC_BASE_URL: httpBaseUrlSchema.default(DEFAULT_EUROPEPMC_BASE_URL),
    PETRI_ENGINE_DOI_BASE_URL: httpBaseUrlSchema.default(DEFAULT_DOI_BASE_URL),
    PETRI_ENGINE_CROSSREF_BASE_URL: httpBaseUrlSchema.default(DEFAULT_CROSSREF_BASE_URL),
    PETRI_ENGINE_CONTACT_EMAIL: z
      .string()
      .trim()
      .max(254)
      .regex(/^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/, "must be an e-mail address")
      .optional(),
    PETRI_ENGINE_LITERATURE_TIMEOUT_MS: timeoutSchema.default(10_000),
  })
  // Each issue is reported on the variable that IS set: service-kit reports an issue on an
  // unset variable as plainly "required", which would hide why.
  .superRefine((env, ctx) => {
    const needs = (variable: string, message: string) =>
      ctx.addIssue({ code: "custom", path: [variable], message });
    const llm = {
      baseUrl: env.PETRI_ENGINE_LLM_BASE_URL,
      model: env.PETRI_ENGINE_LLM_MODEL,
      apiKey: env.PETRI_ENGINE_LLM_API_KEY,
    };
    for (const [variable, message] of llmPairingProblems("PETRI_ENGINE_LLM", llm)) needs(variable, message);
    if (env.PETRI_ENGINE_LITERATURE === "europepmc" && !env.PETRI_ENGINE_CONTACT_EMAIL)
      needs(
        "PETRI_ENGINE_LITERATURE",
        "europepmc needs PETRI_ENGINE_CONTACT_EMAIL (the literature APIs ask for a contact)",
      );
  });

export interface LlmProviderConfig {
  baseUrl: string;
  model: string;
  apiKey?: ApiKey;
  timeoutMs: number;
  maxRetries: number;
}

export interface EuropePmcProviderConfig {
  kind: "europepmc";
  europePmcBaseUrl: string;
  doiBaseUrl: string;
  crossrefBaseUrl: string;
  contactEmail: string;
  timeoutMs: number;
}

export interface EngineProviderConfig {
  /** Absent: no language model; the offline rules write the hypothesis. */
  llm?: LlmProviderConfig;
  literature: { kind: "none" } | EuropePmcProviderConfig;
}

/** Parses the engine's provider variables; throws service-kit's ConfigError listing every problem. */
export function loadEngineProviderConfig(env: Record<string, string | undefined>): EngineProviderConfig {
  const parsed = loadConfig(engineProviderEnvSchema, env);
  const llm: LlmProviderConfig | undefined =
    parsed.PETRI_ENGINE_LLM_BASE_URL && parsed.PETRI_ENGINE_LLM_MODEL
      ? {
          baseUrl: parsed.PETRI_ENGINE_LLM_BASE_URL,
          model: parsed.PETRI_ENGINE_LLM_MODEL,
          ...(parsed.PETRI_ENGINE_LLM_API_KEY ? { apiKey: parsed.PETRI_ENGINE_LLM_API_KEY } : {}),
          timeoutMs: parsed.PETRI_ENGINE_LLM_TIMEOUT_MS,
          maxRetries: parsed.PETRI_ENGINE_LLM_MAX_RETRIES,
        }
      : undefined;
  const literature: EngineProviderConfig["literature"] =
    parsed.PETRI_ENGINE_LITERATURE === "europepmc" && parsed.PETRI_ENGINE_CONTACT_EMAIL
      ? {
          kind: "europepmc",
          europePmcBaseUrl: parsed.PETRI_ENGINE_EUROPEPMC_BASE_URL,
          doiBaseUrl: parsed.PETRI_ENGINE_DOI_BASE_URL,
          crossrefBaseUrl: parsed.PETRI_ENGINE_CROSSREF_BASE_URL,
          contactEmail: parsed.PETRI_ENGINE_CONTACT_EMAIL,
          timeoutMs: parsed.PETRI_ENGINE_LITERATURE_TIMEOUT_MS,
        }
      : { kind: "none" };
  return { ...(llm ? { llm } : {}), literature };
}

export interface ConfiguredProviders {
  writer?: HypothesisWriter;
  literature?: LiteratureProvider;
  /** Releases the literature provider's connection pool (call on shutdown). */
  close(): Promise<void>;
}

export function createProviders(config: EngineProviderConfig): ConfiguredProviders {
  const writer = config.llm
    ? new OpenAiCompatibleWriter({
        baseUrl: config.llm.baseUrl,
        model: config.llm.model,
        ...(config.llm.apiKey ? { apiKey: config.llm.apiKey.reveal() } : {}),
        timeoutMs: config.llm.timeoutMs,
        maxRetries: config.llm.maxRetries,
      })
    : undefined;
  const literature =
    config.literature.kind === "europepmc"
      ? new EuropePmcLiterature({
          europePmcBaseUrl: config.literature.europePmcBaseUrl,
          doiBaseUrl: config.literature.doiBaseUrl,
          crossrefBaseUrl: config.literature.crossrefBaseUrl,
          contactEmail: config.literature.contactEmail,
          timeoutMs: config.literature.timeoutMs,
        })
      : undefined;
  return {
    ...(writer ? { writer } : {}),
    ...(literature ? { literature } : {}),
    close: async () => {
      await literature?.close();
    },
  };
}
