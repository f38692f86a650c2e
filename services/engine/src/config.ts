/**
 * The engine's run limits (env), parsed once at boot with readable errors. The providers'
 * settings (LLM, literature) are in providers/config.ts.
 *
 *   PETRI_ENGINE_MAX_ACTIVE_RUNS     PENDING + RUNNING runs one account may have (default 1);
 *                                    starting another is 409 engine_run_active
 *   PETRI_ENGINE_RUN_TIMEOUT_MS      longest a run may execute before it FAILS with "timeout"
 *                                    (default 120000)
 *   PETRI_ENGINE_SYNC_TIMEOUT_MS     longest POST /cloud-labs/engine may take (default 20000)
 *   PETRI_ENGINE_WORKER_CONCURRENCY  runs one engine process executes at once (default 2)
 *   PETRI_ENGINE_RUN_LEASE_MS        a worker's claim on a run, renewed while it works; a run whose
 *                                    worker died is taken over after it (default 30000)
 *   PETRI_ENGINE_RUN_MAX_ATTEMPTS    how often a run interrupted by a lost worker is started
 *                                    (default 2; then it FAILS with "interrupted")
 */
import { z } from "zod";

const positiveInt = (fallback: number, max: number) =>
  z.coerce.number().int().min(1).max(max).default(fallback);

export const engineRunConfigSchema = z.object({
  PETRI_ENGINE_MAX_ACTIVE_RUNS: positiveInt(1, 100),
  PETRI_ENGINE_RUN_TIMEOUT_MS: positiveInt(120_000, 3_600_000),
  PETRI_ENGINE_SYNC_TIMEOUT_MS: positiveInt(20_000, 120_000),
  PETRI_ENGINE_WORKER_CONCURRENCY: positiveInt(2, 64),
  PETRI_ENGINE_RUN_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  PETRI_ENGINE_RUN_MAX_ATTEMPTS: positiveInt(2, 10),
});

export interface EngineRunLimits {
  maxActiveRunsPerAccount: number;
  runTimeoutMs: number;
  syncTimeoutMs: number;
  workerConcurrency: number;
  leaseMs: number;
  maxAttempts: number;
}

export const DEFAULT_RUN_LIMITS: EngineRunLimits = runLimitsFromConfig(engineRunConfigSchema.parse({}));

export function runLimitsFromConfig(config: z.output<typeof engineRunConfigSchema>): EngineRunLimits {
  return {
    maxActiveRunsPerAccount: config.PETRI_ENGINE_MAX_ACTIVE_RUNS,
    runTimeoutMs: config.PETRI_ENGINE_RUN_TIMEOUT_MS,
    syncTimeoutMs: config.PETRI_ENGINE_SYNC_TIMEOUT_MS,
    workerConcurrency: config.PETRI_ENGINE_WORKER_CONCURRENCY,
    leaseMs: config.PETRI_ENGINE_RUN_LEASE_MS,
    maxAttempts: config.PETRI_ENGINE_RUN_MAX_ATTEMPTS,
  };
}
