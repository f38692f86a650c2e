import { CloudLabsService } from "@petri/contracts/cloudlabs";
import { createUnitOfWork } from "@petri/events";
import { type ServiceDeps, createServiceRuntime } from "@petri/host";
import {
  type Clock,
  type HostedService,
  READ_MODEL_WAIT,
  ReadModelArrivals,
  type ReadModelWait,
} from "@petri/service-kit";
import { HttpLab } from "./adapters/http-lab.js";
import type { LabAdapter } from "./adapters/lab-adapter.js";
import { SandboxLab } from "./adapters/sandbox-lab.js";
import { makeCancelSubmission } from "./app/cancel-submission.js";
import { catalogUseCases } from "./app/catalog.js";
import { makeGetSubmission } from "./app/get-submission.js";
import { makeGetSubmissionRawData } from "./app/get-submission-raw-data.js";
import { type IntakeInterpreter, makeInterpretIntake } from "./app/interpret-intake.js";
import { makeListSubmissions } from "./app/list-submissions.js";
import { SubmissionWorker } from "./app/submission-worker.js";
import { makeTranslateExperiment } from "./app/translate-experiment.js";
import { translateIntake } from "./app/translation.js";
import { validateIntakeUseCase } from "./app/validate-intake.js";
import { type CloudLabsSettings, DEFAULT_CLOUDLABS_SETTINGS } from "./config.js";
import { cloudLabsMigrations } from "./db/migrations/index.js";
import { cloudLabsConsumers } from "./events/subscriptions.js";
import type { CloudLabsDb, SubmissionRow } from "./db/schema.js";
import { CloudLabsRpc, type CloudLabsUseCases } from "./rpc/cloudlabs-rpc.js";

export interface CloudLabsServiceOptions {
  settings?: CloudLabsSettings;
  /** A language model for POST /cloud-labs/interpret (interpret-llm); the rules alone otherwise. */
  interpreter?: IntakeInterpreter & { close?(): Promise<void> };
  /** How long interpret waits for the language model before answering with the rules (default 30 s). */
  interpretTimeoutMs?: number;
  /** The submission worker runs in the background (default true); tests may drive it with `worker.drain()`. */
  runInBackground?: boolean;
  /** Longest real-time wait between two looks at the submission queue (the safety poll; default PETRI_SAFETY_POLL_MS, 10 s). */
  workerPollMs?: number;
  /** The bounded wait of translate for an experiment whose event is in flight (default READ_MODEL_WAIT). */
  experimentViewWait?: ReadModelWait;
}

export interface CloudLabsHostedService extends HostedService {
  readonly useCases: CloudLabsUseCases;
  readonly worker: SubmissionWorker;
}

/** Composition root of the cloudlabs service: providers, interpretation, translation, validation and submissions. */
export function createCloudLabsService(
  deps: ServiceDeps,
  options: CloudLabsServiceOptions = {},
): CloudLabsHostedService {
  const arrivals = new ReadModelArrivals();
  const runtime = createServiceRuntime<CloudLabsDb>({
    ...deps,
    service: "cloudlabs",
    migrations: cloudLabsMigrations,
    consumers: cloudLabsConsumers({ arrivals }),
  });
  const { db, afterCommit } = runtime;
  const { clock } = deps;
  const logger = deps.logger.child({ service: "cloudlabs" });
  const settings = options.settings ?? DEFAULT_CLOUDLABS_SETTINGS;

  const { http, adapterName, adapterFor } = labAdapters(clock, settings);
  const worker = new SubmissionWorker({
    db,
    clock,
    logger,
    adapterFor,
    afterCommit,
    pollIntervalMs: settings.pollIntervalMs,
    ...(options.workerPollMs === undefined ? {} : { loopPollMs: options.workerPollMs }),
  });

  const changing = { db, clock, unitOfWork: createUnitOfWork(db, runtime.committedEvents) };
  const useCases: CloudLabsUseCases = {
    catalog: catalogUseCases,
    interpretIntake: makeInterpretIntake({
      llm: options.interpreter,
      logger,
      timeoutMs: options.interpretTimeoutMs ?? 30_000,
    }),
    translateIntake,
    validateIntake: validateIntakeUseCase,
    translateExperiment: makeTranslateExperiment({
      ...changing,
      adapterFor: adapterName,
      wakeWorker: () => worker.poke(),
      arrivals,
      wait: options.experimentViewWait ?? READ_MODEL_WAIT,
    }),
    listSubmissions: makeListSubmissions({ db }),
    getSubmission: makeGetSubmission({ db }),
    cancelSubmission: makeCancelSubmission({ ...changing, adapterFor }),
    getSubmissionRawData: makeGetSubmissionRawData({ db }),
  };
  const rpc = new CloudLabsRpc(useCases);
  const background = options.runInBackground ?? true;

  return {
    ...runtime.hosted,
    useCases,
    worker,
    routes: (router) => {
      router.service(CloudLabsService, rpc);
      runtime.routeDeadLetters(router);
    },
    async start() {
      await runtime.hosted.start();
      if (background) worker.start();
    },
    async stop() {
      await worker.stop();
      await runtime.hosted.stop();
      await http?.close();
      await options.interpreter?.close?.();
    },
    async readiness() {
      const base = await runtime.hosted.readiness();
      if (!background) return base;
      const checks = [...base.checks, { name: "submission worker", ok: worker.isRunning() }];
      return { ready: checks.every((check) => check.ok), checks };
    },
  };
}

/**
 * The lab adapters: the sandbox for every provider, the HTTP lab for those configured to use it;
 * `adapterName` picks one for a new submission, `adapterFor` the one a stored submission uses.
 */
function labAdapters(clock: Clock, settings: CloudLabsSettings) {
  const sandbox = new SandboxLab({
    clock,
    stepMs: settings.sandboxStepMs,
    rawDataUrl: (id) => `/cloud-labs/submissions/${id}/raw-data`,
  });
  const http = settings.http ? new HttpLab(settings.http) : undefined;
  const adapterName = (providerId: string) =>
    http && settings.http?.providers.includes(providerId) ? "http" : "sandbox";
  const adapterFor = (row: SubmissionRow): LabAdapter => {
    if (row.adapter === "http") {
      if (!http) throw new Error(`submission ${row.id} needs the HTTP lab adapter, which is not configured`);
      return http;
    }
    return sandbox;
  };
  return { http, adapterName, adapterFor };
}
