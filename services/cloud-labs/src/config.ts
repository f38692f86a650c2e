/**
 * Cloud labs' settings (env), parsed once at boot with readable errors (a key is never echoed).
 *
 *   PETRI_CLOUDLABS_SANDBOX_STEP_MS     time between two statuses of a sandbox run (default 60000:
 *                                       queued after 1 min, running after 2, completed after 3)
 *   PETRI_CLOUDLABS_POLL_INTERVAL_MS    how often an active submission is polled (default 30000)
 *   PETRI_CLOUDLABS_HTTP_BASE_URL       a real lab's run API (adapters/http-lab.ts); unset: every
 *                                       provider is the sandbox
 *   PETRI_CLOUDLABS_HTTP_API_KEY        its bearer key (required with the base URL)
 *   PETRI_CLOUDLABS_HTTP_PROVIDERS      comma-separated provider ids sent there (required with it)
 *   PETRI_CLOUDLABS_HTTP_TIMEOUT_MS     per call (default 10000)
 */
import { loadConfig } from "@petri/service-kit";
import { z } from "zod";
import { PROVIDERS } from "./domain/providers/index.js";

const ms = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const cloudLabsConfigSchema = z
  .object({
    PETRI_CLOUDLABS_SANDBOX_STEP_MS: ms(60_000, 10, 86_400_000),
    PETRI_CLOUDLABS_POLL_INTERVAL_MS: ms(30_000, 10, 3_600_000),
    PETRI_CLOUDLABS_HTTP_BASE_URL: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .transform((value) => value.replace(/\/+$/, ""))
      .optional(),
    PETRI_CLOUDLABS_HTTP_API_KEY: z.string().trim().min(1).optional(),
    PETRI_CLOUDLABS_HTTP_PROVIDERS: z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((id) => id.trim())
          .filter(Boolean),
      )
      .optional(),
    PETRI_CLOUDLABS_HTTP_TIMEOUT_MS: ms(10_000, 100, 120_000),
  })
  .superRefine((env, ctx) => {
    if (env.PETRI_CLOUDLABS_HTTP_BASE_URL && !env.PETRI_CLOUDLABS_HTTP_API_KEY)
      ctx.addIssue({
        code: "custom",
        path: ["PETRI_CLOUDLABS_HTTP_BASE_URL"],
        message: "needs PETRI_CLOUDLABS_HTTP_API_KEY",
      });
    if (env.PETRI_CLOUDLABS_HTTP_BASE_URL && !env.PETRI_CLOUDLABS_HTTP_PROVIDERS?.length)
      ctx.addIssue({
        code: "custom",
        path: ["PETRI_CLOUDLABS_HTTP_BASE_URL"],
        message: "needs PETRI_CLOUDLABS_HTTP_PROVIDERS (which provider ids the lab runs)",
      });
    for (const id of env.PETRI_CLOUDLABS_HTTP_PROVIDERS ?? [])
      if (!PROVIDERS.some((provider) => provider.id === id))
        ctx.addIssue({
          code: "custom",
          path: ["PETRI_CLOUDLABS_HTTP_PROVIDERS"],
          message: `no provider "${id}"`,
        });
  });

export interface CloudLabsSettings {
  sandboxStepMs: number;
  pollIntervalMs: number;
  http?: { baseUrl: string; apiKey: string; providers: string[]; timeoutMs: number };
}

export function cloudLabsSettingsFromEnv(
  env: Record<string, string | undefined> = process.env,
): CloudLabsSettings {
  const config = loadConfig(cloudLabsConfigSchema, env);
  return {
    sandboxStepMs: config.PETRI_CLOUDLABS_SANDBOX_STEP_MS,
    pollIntervalMs: config.PETRI_CLOUDLABS_POLL_INTERVAL_MS,
    ...(config.PETRI_CLOUDLABS_HTTP_BASE_URL &&
    config.PETRI_CLOUDLABS_HTTP_API_KEY &&
    config.PETRI_CLOUDLABS_HTTP_PROVIDERS
      ? {
          http: {
            baseUrl: config.PETRI_CLOUDLABS_HTTP_BASE_URL,
            apiKey: config.PETRI_CLOUDLABS_HTTP_API_KEY,
            providers: config.PETRI_CLOUDLABS_HTTP_PROVIDERS,
            timeoutMs: config.PETRI_CLOUDLABS_HTTP_TIMEOUT_MS,
          },
        }
      : {}),
  };
}

export const DEFAULT_CLOUDLABS_SETTINGS: CloudLabsSettings = {
  sandboxStepMs: 60_000,
  pollIntervalMs: 30_000,
};
