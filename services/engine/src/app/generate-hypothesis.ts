import { type Principal, UnavailableError } from "@petri/service-kit";
import { EngineProviderError, type GeneratedHypothesis } from "../domain/generation.js";
import { runInput } from "../domain/run.js";
import type { GeneratingDeps } from "./deps.js";
import { RunFailure, runPipeline } from "./run-pipeline.js";

/** 503 with the provider's (or the deadline's) code: the caller may retry or start a run. */
export class EngineUnavailableError extends UnavailableError {
  constructor(
    private readonly publicCode: string,
    message: string,
  ) {
    super(message, { retryable: true });
  }
  override get code(): string {
    return this.publicCode;
  }
}

/**
 * POST /cloud-labs/engine: the pipeline of a run, answered synchronously within
 * `syncTimeoutMs`. Nothing is stored. A deadline or provider failure is 503 with a code
 * (engine_timeout, llm_unavailable, ...); an input the engine cannot serve is 422.
 */
export function makeGenerateHypothesis(deps: GeneratingDeps) {
  return async function generateHypothesis(
    principal: Principal,
    raw: { query: string; context: string; experimentType: string },
  ): Promise<GeneratedHypothesis> {
    const input = runInput({ ...raw, jobType: "hypothesis_generation" });
    const deadline = AbortSignal.timeout(deps.limits.syncTimeoutMs);
    try {
      return await runPipeline(
        {
          query: input.query,
          context: input.context,
          jobType: input.jobType,
          ...(input.experimentType ? { experimentType: input.experimentType } : {}),
        },
        deps.providers,
        async () => undefined,
        deadline,
      );
    } catch (error) {
      if (deadline.aborted)
        throw new EngineUnavailableError(
          "engine_timeout",
          `the engine did not answer within ${deps.limits.syncTimeoutMs / 1000} s; start an asynchronous run instead (POST /cloud-labs/engine/start)`,
        );
      if (error instanceof EngineProviderError) throw new EngineUnavailableError(error.code, error.message);
      if (error instanceof RunFailure) throw new EngineUnavailableError(error.code, error.message);
      deps.logger.error({ err: error, accountId: principal.accountId }, "synchronous engine request failed");
      throw error;
    }
  };
}
