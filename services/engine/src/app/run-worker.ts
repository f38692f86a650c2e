/**
 * The engine's run worker: leases PENDING runs from the table and executes them, a few at a
 * time per process. Durable by construction:
 *
 * - a run is claimed with a lease (lease_owner, lease_until) taken with FOR UPDATE SKIP
 *   LOCKED, so replicas share the queue; the lease is renewed on every progress report and by
 *   a heartbeat while a provider call is in flight;
 * - a worker that dies leaves the lease to expire; any worker's next step puts the run back to
 *   PENDING (it starts over: the pipeline only reads and computes) or, once its attempts are
 *   used up, FAILS it as "interrupted". A run is never RUNNING for longer than its lease after
 *   its worker is gone;
 * - a graceful stop aborts the runs in flight and hands them back at once (PENDING, the attempt
 *   not counted), so a rolling restart delays them instead of failing them;
 * - a run longer than `runTimeoutMs` FAILS with "timeout"; a provider failure FAILS with the
 *   provider's code and message (never a key, prompt or upstream body).
 */
import { BackgroundLoop, type Clock, type Logger, type StepResult, newId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { EngineRunLimits } from "../config.js";
import {
  completeRun,
  failRun,
  leasePendingRuns,
  nextLeaseExpiry,
  recoverExpiredRuns,
  releaseRun,
  reportProgress,
} from "../db/runs.js";
import type { EngineDb, EngineRunRow } from "../db/schema.js";
import { EngineProviderError, type EngineStage, type JobType } from "../domain/generation.js";
import { type EngineProviders, RunFailure, runPipeline } from "./run-pipeline.js";
import { timeEngineRun } from "../run-metrics.js";

export interface RunWorkerOptions {
  db: Kysely<EngineDb>;
  clock: Clock;
  logger: Logger;
  providers: EngineProviders;
  limits: EngineRunLimits;
  /** Longest real-time wait between two looks at the queue (the safety poll; default PETRI_SAFETY_POLL_MS, 10 s). */
  pollMs?: number;
}

export class RunWorker {
  /** This worker's lease owner id. */
  readonly id = newId("wkr");
  private readonly loop: BackgroundLoop;
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly stopping = new AbortController();

  constructor(private readonly options: RunWorkerOptions) {
    this.loop = new BackgroundLoop({
      name: "engine-runs",
      clock: options.clock,
      logger: options.logger,
      pollMs: options.pollMs,
      step: () => this.step(),
    });
  }

  start(): void {
    this.loop.start();
  }

  isRunning(): boolean {
    return this.loop.running();
  }

  poke(): void {
    this.loop.poke();
  }

  /** Stops leasing, aborts the runs in flight and hands them back (PENDING), then returns. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop.stop();
    for (const run of this.inFlight.values()) run.abort.abort();
    await Promise.all([...this.inFlight.values()].map((run) => run.done));
  }

  /** Runs every due run to its end now (tests drive the worker with this). */
  async drain(): Promise<void> {
    for (;;) {
      await this.step();
      if (this.inFlight.size === 0) return;
      await Promise.race([...this.inFlight.values()].map((run) => run.done));
    }
  }

  /** One look at the queue: recover lost runs, lease what there is room for, start them. */
  async step(): Promise<StepResult> {
    const { db, clock, limits } = this.options;
    const now = clock.now();
    const recovered = await recoverExpiredRuns(db, now, limits.maxAttempts);
    if (recovered.requeued + recovered.failed > 0)
      this.options.logger.warn({ ...recovered }, "engine runs whose worker was lost were requeued or failed");
    const room = limits.workerConcurrency - this.inFlight.size;
    if (room > 0 && !this.stopping.signal.aborted) {
      const leased = await leasePendingRuns(db, this.id, room, now, this.leaseUntil());
      for (const run of leased) this.execute(run);
      if (leased.length === room) return { again: true };
    }
    return { again: false, dueAt: await nextLeaseExpiry(db) };
  }

  private leaseUntil(): Date {
    return new Date(this.options.clock.now().getTime() + this.options.limits.leaseMs);
  }

  private execute(run: EngineRunRow): void {
    const abort = new AbortController();
    const done = this.executeRun(run, abort).finally(() => {
      this.inFlight.delete(run.id);
      this.loop.poke();
    });
    this.inFlight.set(run.id, { abort, done });
  }

  private async executeRun(run: EngineRunRow, stop: AbortController): Promise<void> {
    const { db, clock, logger, limits, providers } = this.options;
    const ref = { id: run.id, owner: this.id };
    const deadline = AbortSignal.timeout(limits.runTimeoutMs);
    const signal = AbortSignal.any([stop.signal, deadline]);
    const ended = timeEngineRun();
    let stage: { stage: EngineStage; percentage: number } = { stage: "queued", percentage: 0 };
    let leaseLost = false;
    const renew = async () => {
      const held = await reportProgress(db, ref, stage, clock.now(), this.leaseUntil());
      // The run was deleted (clear-history) or taken over: stop working on it.
      if (!held) {
        leaseLost = true;
        stop.abort();
      }
    };
    const heartbeat = setInterval(
      () => void renew().catch(() => undefined),
      Math.max(250, limits.leaseMs / 3),
    );
    heartbeat.unref();
    try {
      const result = await runPipeline(
        {
          query: run.query,
          context: run.context,
          jobType: run.job_type as JobType,
          ...(run.experiment_type ? { experimentType: run.experiment_type as ExperimentTypeName } : {}),
        },
        providers,
        async (next, percentage) => {
          stage = { stage: next, percentage };
          await renew();
        },
        signal,
      );
      await completeRun(
        db,
        ref,
        { experimentType: result.experiment_type, resultJson: JSON.stringify(result) },
        clock.now(),
      );
      ended("completed");
    } catch (error) {
      if (leaseLost) return ended("lease_lost");
      if (stop.signal.aborted && !deadline.aborted) {
        await releaseRun(db, ref, clock.now());
        ended("released");
        return;
      }
      const failure = this.failureOf(error, deadline.aborted);
      if (failure.code === "internal_error") logger.error({ err: error, runId: run.id }, "engine run failed");
      await failRun(db, ref, failure, clock.now());
      ended(deadline.aborted ? "timeout" : "failed");
    } finally {
      clearInterval(heartbeat);
    }
  }

  private failureOf(error: unknown, timedOut: boolean): { code: string; message: string } {
    if (timedOut)
      return {
        code: "timeout",
        message: `the run exceeded its time limit of ${this.options.limits.runTimeoutMs / 1000} s`,
      };
    if (error instanceof EngineProviderError || error instanceof RunFailure)
      return { code: error.code, message: error.message };
    return { code: "internal_error", message: "the engine failed unexpectedly; start the run again" };
  }
}
