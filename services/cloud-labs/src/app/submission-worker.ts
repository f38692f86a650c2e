/**
 * The submission worker: sends pending submissions to their lab and polls the active ones,
 * recording each status change (SubmissionStatusChanged) in the transaction that makes it.
 *
 * - Submissions are leased (FOR UPDATE SKIP LOCKED), so replicas share the work; a worker that
 *   dies leaves the lease to expire and another takes the submission up again. Sending twice
 *   is harmless for the sandbox; a real lab's run API receives the submission id to deduplicate.
 * - A lab that cannot be reached is asked again later with backoff; sending fails for good after
 *   `maxSendAttempts`, or at once when the lab refuses the protocol.
 * - A cancel requested meanwhile wins: the worker's writes are guarded by the status it read.
 */
import { BackgroundLoop, type Clock, type Logger, type StepResult, newId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { LabAdapter, SubmissionForLab } from "../adapters/lab-adapter.js";
import { LabAdapterError } from "../adapters/lab-adapter.js";
import {
  finishLeasedSubmission,
  leaseDueSubmissions,
  nextDueAt,
  releaseSubmission,
} from "../db/submissions.js";
import type { CloudLabsDb, SubmissionRow } from "../db/schema.js";
import type { LabPlan } from "../domain/plan.js";
import { advances } from "../domain/submission.js";
import { recordStatusChanged } from "./submission-events.js";
import { countLabCallFailure, countSubmissionEnd } from "../submission-metrics.js";

export interface SubmissionWorkerOptions {
  db: Kysely<CloudLabsDb>;
  clock: Clock;
  logger: Logger;
  /** The adapter of each submission (by its `adapter` column). */
  adapterFor(row: SubmissionRow): LabAdapter;
  afterCommit(): void;
  /** How often an active submission is polled (default 30 s). */
  pollIntervalMs?: number;
  /** Sends tried before a pending submission fails (default 5). */
  maxSendAttempts?: number;
  /** Deadline of one lab call (default 10 s); the lease is twice that plus a margin. */
  callTimeoutMs?: number;
  /** Longest real-time wait between two looks at the queue (the safety poll; default PETRI_SAFETY_POLL_MS, 10 s). */
  loopPollMs?: number;
}

const BATCH = 16;

export function forLab(row: SubmissionRow): SubmissionForLab {
  return {
    id: row.id,
    providerId: row.provider_id,
    providerSubmissionId: row.provider_submission_id,
    protocolFormat: row.protocol_format,
    protocol: row.translated_protocol as Record<string, unknown>,
    plan: row.plan as unknown as LabPlan,
    submittedAt: row.submitted_at,
  };
}

export class SubmissionWorker {
  readonly id = newId("wkr");
  private readonly loop: BackgroundLoop;
  private readonly pollIntervalMs: number;
  private readonly maxSendAttempts: number;
  private readonly callTimeoutMs: number;

  constructor(private readonly options: SubmissionWorkerOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 30_000;
    this.maxSendAttempts = options.maxSendAttempts ?? 5;
    this.callTimeoutMs = options.callTimeoutMs ?? 10_000;
    this.loop = new BackgroundLoop({
      name: "cloudlab-submissions",
      clock: options.clock,
      logger: options.logger,
      ...(options.loopPollMs === undefined ? {} : { pollMs: options.loopPollMs }),
      step: () => this.step(),
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  isRunning(): boolean {
    return this.loop.running();
  }

  poke(): void {
    this.loop.poke();
  }

  /** Sends and polls everything due now, until nothing is (tests drive the worker with this). */
  async drain(): Promise<void> {
    for (let round = 0; round < 100; round += 1) if (!(await this.step()).again) return;
  }

  async step(): Promise<StepResult> {
    const { db, clock } = this.options;
    const now = clock.now();
    const leased = await leaseDueSubmissions(
      db,
      this.id,
      BATCH,
      now,
      new Date(now.getTime() + 3 * this.callTimeoutMs),
    );
    for (const row of leased) await this.handle(row);
    if (leased.length === BATCH) return { again: true };
    return { again: false, dueAt: await nextDueAt(db) };
  }

  private async handle(row: SubmissionRow): Promise<void> {
    const adapter = this.options.adapterFor(row);
    const signal = AbortSignal.timeout(this.callTimeoutMs);
    try {
      if (row.status === "pending") await this.send(row, adapter, signal);
      else await this.poll(row, adapter, signal);
    } catch (error) {
      if (!(error instanceof LabAdapterError)) throw error;
      await this.afterLabError(row, error);
    }
  }

  private async send(row: SubmissionRow, adapter: LabAdapter, signal: AbortSignal): Promise<void> {
    const { providerSubmissionId } = await adapter.submit(forLab(row), signal);
    const now = this.options.clock.now();
    await this.change(row, {
      status: "submitted",
      provider_submission_id: providerSubmissionId,
      submitted_at: now,
      send_attempts: row.send_attempts + 1,
      next_check_at: new Date(now.getTime() + this.pollIntervalMs),
      updated_at: now,
    });
  }

  private async poll(row: SubmissionRow, adapter: LabAdapter, signal: AbortSignal): Promise<void> {
    const report = await adapter.poll(forLab(row), signal);
    const now = this.options.clock.now();
    const next = new Date(now.getTime() + this.pollIntervalMs);
    if (!advances(row.status, report.status)) {
      await releaseSubmission(this.options.db, { id: row.id, leaseOwner: this.id }, { next_check_at: next });
      return;
    }
    await this.change(row, {
      status: report.status,
      next_check_at: next,
      updated_at: now,
      ...(report.status === "running" || report.status === "completed"
        ? { started_at: row.started_at ?? now }
        : {}),
      ...(report.status === "completed"
        ? { results: JSON.stringify(report.results ?? {}), completed_at: now }
        : {}),
      ...(report.status === "failed"
        ? { error: (report.error ?? "the lab failed the run").slice(0, 2000), completed_at: now }
        : {}),
      ...(report.status === "cancelled" ? { completed_at: now } : {}),
    });
  }

  private async afterLabError(row: SubmissionRow, error: LabAdapterError): Promise<void> {
    const now = this.options.clock.now();
    const attempts = row.status === "pending" ? row.send_attempts + 1 : row.send_attempts;
    const givesUp = row.status === "pending" && (!error.retryable || attempts >= this.maxSendAttempts);
    this.options.logger.warn(
      { submissionId: row.id, err: error.message, attempts, givesUp },
      "cloud-lab call failed",
    );
    countLabCallFailure(row.provider_id, row.status === "pending" ? "submit" : "poll", !givesUp);
    if (givesUp) {
      await this.change(row, {
        status: "failed",
        error: `sending the protocol to the lab failed: ${error.message}`,
        send_attempts: attempts,
        completed_at: now,
        updated_at: now,
      });
      return;
    }
    const backoff = Math.min(this.pollIntervalMs * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
    await releaseSubmission(
      this.options.db,
      { id: row.id, leaseOwner: this.id },
      { next_check_at: new Date(now.getTime() + backoff), send_attempts: attempts },
    );
  }

  /** Applies a status change and records its event, in one transaction; releases the lease. */
  private async change(
    row: SubmissionRow,
    changes: Parameters<typeof finishLeasedSubmission>[2],
  ): Promise<void> {
    const now = this.options.clock.now();
    const updated = await this.options.db.transaction().execute(async (trx) => {
      const after = await finishLeasedSubmission(
        trx,
        { id: row.id, expected: row.status, leaseOwner: this.id },
        changes,
      );
      if (after && after.status !== row.status) await recordStatusChanged(trx, after, row.status, now);
      return after;
    });
    if (updated) {
      if (updated.status !== row.status) countSubmissionEnd(updated, updated.status, now);
      this.options.afterCommit();
    }
  }
}
