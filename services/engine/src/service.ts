import { EngineService } from "@petri/contracts/engine";
import { type ServiceDeps, createServiceRuntime } from "@petri/host";
import type { HostedService } from "@petri/service-kit";
import { makeClearRunHistory } from "./app/clear-run-history.js";
import { makeGenerateHypothesis } from "./app/generate-hypothesis.js";
import { makeGetActiveRun } from "./app/get-active-run.js";
import { makeGetRun } from "./app/get-run.js";
import { makeListRuns } from "./app/list-runs.js";
import type { EngineProviders } from "./app/run-pipeline.js";
import { RunWorker } from "./app/run-worker.js";
import { makeStartRun } from "./app/start-run.js";
import { makeUpdateRunDraft } from "./app/update-run-draft.js";
import { DEFAULT_RUN_LIMITS, type EngineRunLimits } from "./config.js";
import { engineMigrations } from "./db/migrations/index.js";
import type { EngineDb } from "./db/schema.js";
import { offlineRulesProviders } from "./app/offline-rules.js";
import { EngineRpc, type EngineUseCases } from "./rpc/engine-rpc.js";

export interface EngineServiceOptions {
  /**
   * The LLM writer and literature provider (providers/config.ts; none by default), and how to
   * release them on stop. The offline rules engine is always on.
   */
  providers?: Pick<EngineProviders, "writer" | "literature"> & { close?(): Promise<void> };
  /** Replaces the whole pipeline's providers (tests). */
  pipelineProviders?: EngineProviders;
  limits?: Partial<EngineRunLimits>;
  /** The run worker runs in the background (default true); tests may drive it with `worker.drain()`. */
  runInBackground?: boolean;
  /** Longest real-time wait between two looks at the run queue (the safety poll; default PETRI_SAFETY_POLL_MS, 10 s). */
  workerPollMs?: number;
}

export interface EngineHostedService extends HostedService {
  readonly useCases: EngineUseCases;
  readonly worker: RunWorker;
}

/** Composition root of the engine service: hypothesis generation, asynchronous runs and synchronous. */
export function createEngineService(
  deps: ServiceDeps,
  options: EngineServiceOptions = {},
): EngineHostedService {
  const runtime = createServiceRuntime<EngineDb>({
    ...deps,
    service: "engine",
    migrations: engineMigrations,
  });
  const { db } = runtime;
  const { clock } = deps;
  const logger = deps.logger.child({ service: "engine" });
  const limits: EngineRunLimits = { ...DEFAULT_RUN_LIMITS, ...options.limits };
  const providers: EngineProviders = options.pipelineProviders ?? {
    ...offlineRulesProviders,
    writer: options.providers?.writer,
    literature: options.providers?.literature,
  };
  const worker = new RunWorker({
    db,
    clock,
    logger,
    providers,
    limits,
    ...(options.workerPollMs === undefined ? {} : { pollMs: options.workerPollMs }),
  });

  const useCases: EngineUseCases = {
    startEngineRun: makeStartRun({ db, clock, limits, wakeWorker: () => worker.poke() }),
    getActiveEngineRun: makeGetActiveRun({ db }),
    listEngineRuns: makeListRuns({ db }),
    getEngineRun: makeGetRun({ db }),
    updateEngineRunDraft: makeUpdateRunDraft({ db, clock }),
    clearEngineRunHistory: makeClearRunHistory({ db }),
    generateHypothesis: makeGenerateHypothesis({ providers, limits, logger }),
  };
  const rpc = new EngineRpc(useCases);

  return {
    ...runtime.hosted,
    useCases,
    worker,
    routes: (router) => {
      router.service(EngineService, rpc);
      runtime.routeDeadLetters(router);
    },
    async start() {
      await runtime.hosted.start();
      if (options.runInBackground ?? true) worker.start();
    },
    async stop() {
      await worker.stop();
      await runtime.hosted.stop();
      await options.providers?.close?.();
    },
    async readiness() {
      const base = await runtime.hosted.readiness();
      if (!(options.runInBackground ?? true)) return base;
      const checks = [...base.checks, { name: "engine run worker", ok: worker.isRunning() }];
      return { ready: checks.every((check) => check.ok), checks };
    },
  };
}
