import { loadConfig } from "@petri/service-kit";
import { engineRunConfigSchema, runLimitsFromConfig } from "./config.js";
import { createProviders, loadEngineProviderConfig } from "./providers/index.js";
import type { EngineServiceOptions } from "./service.js";

/**
 * The engine's options from the environment: run limits (config.ts) and the optional LLM and
 * literature providers (providers/config.ts). Throws service-kit's ConfigError naming every
 * bad variable (never a key's value); call it under exitOnConfigError.
 */
export function engineOptionsFromEnv(
  env: Record<string, string | undefined> = process.env,
): EngineServiceOptions {
  const limits = runLimitsFromConfig(loadConfig(engineRunConfigSchema, env));
  const providers = createProviders(loadEngineProviderConfig(env));
  return { limits, providers };
}
