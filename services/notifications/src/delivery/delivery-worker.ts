/**
 * The delivery worker: takes due deliveries from the table and runs their attempts, several
 * at once, so that one slow or dead receiver never delays the others.
 *
 * - Deliveries are leased (lease_owner, lease_until) with UPDATE ... FOR UPDATE SKIP LOCKED,
 *   so replicas share the work; a worker that dies leaves its leases to expire (default
 *   60 s, well above the 5 s attempt deadline) and another worker makes the attempt again,
 *   with the same webhook-id.
 * - At most `maxInFlight` attempts run at once in this process, and at most `perHost` per
 *   receiver (host and port); a receiver whose last attempt got no answer is kept to one
 *   attempt at a time until it answers again. The scan skips receivers with no room, so a
 *   backlog for one receiver never hides another's due delivery.
 * - Nothing is held open while an attempt runs: the lease is the only claim.
 */
import { type Clock, type Logger, newId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { leaseDeliveries, nextDueAt, scanDue } from "../db/deliveries.js";
import type { NotificationsDb, WebhookDeliveryRow } from "../db/schema.js";
import type { AttemptOutcome } from "../domain/attempt-outcome.js";
import { ATTEMPT_TIMEOUT_MS } from "./webhook-sender.js";
import { BackgroundLoop, type StepResult } from "@petri/service-kit";

export const DEFAULT_MAX_IN_FLIGHT = 128;
export const DEFAULT_PER_HOST = 4;
export const DEFAULT_LEASE_MS = 60_000;
/** Candidates read per scan; the lease then takes what there is room for. */
const SCAN_LIMIT = 500;

/** A delivery the worker may take: its id and receiver (host and port). */
export interface DueDelivery {
  id: string;
  host_key: string;
}

export interface DeliveryWorkerOptions {
  db: Kysely<NotificationsDb>;
  clock: Clock;
  logger: Logger;
  attempt(row: WebhookDeliveryRow, owner: string): Promise<{ outcome: AttemptOutcome }>;
  maxInFlight?: number;
  perHost?: number;
  leaseMs?: number;
  /** The safety poll: longest idle wait (default PETRI_SAFETY_POLL_MS, 10 s) and first wait after activity (1 s). */
  pollMs?: number;
  minPollMs?: number;
}

export class DeliveryWorker {
  /** This worker's lease owner id. */
  readonly id = newId("wkr");
  private readonly maxInFlight: number;
  private readonly perHost: number;
  private readonly leaseMs: number;
  private readonly inFlight = new Map<string, number>();
  private readonly unresponsive = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  /** Deliveries announced by the commit that created them, taken without a scan. */
  private offered: DueDelivery[] = [];
  private readonly loop: BackgroundLoop;
  private stopping = false;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this.perHost = options.perHost ?? DEFAULT_PER_HOST;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (this.leaseMs < 2 * ATTEMPT_TIMEOUT_MS)
      throw new RangeError(
        `the delivery lease must be at least ${2 * ATTEMPT_TIMEOUT_MS} ms (twice the attempt deadline)`,
      );
    if (
      !Number.isInteger(this.maxInFlight) ||
      this.maxInFlight < 1 ||
      !Number.isInteger(this.perHost) ||
      this.perHost < 1
    )
      throw new RangeError("maxInFlight and perHost must be positive integers");
    this.loop = new BackgroundLoop({
      name: "webhook-deliveries",
      clock: options.clock,
      logger: options.logger,
      pollMs: options.pollMs,
      minPollMs: options.minPollMs,
      step: () => this.step(),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops taking work and waits for the attempts in flight (each ends within its deadline). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    await Promise.allSettled([...this.running]);
  }

  isRunning(): boolean {
    return this.loop.running();
  }

  /**
   * A delivery that is due now, announced once the transaction that created it committed:
   * the next step leases it directly, without scanning for due work first (the scan runs
   * right after, off the delivery's path). One the worker has no room for is found later by
   * a scan, like any due delivery.
   */
  offer(delivery: DueDelivery): void {
    this.offered.push(delivery);
    this.loop.poke();
  }

  poke(): void {
    this.loop.poke();
  }

  /** Attempts in flight right now. */
  get activeAttempts(): number {
    return this.running.size;
  }

  /**
   * Runs every delivery due now (and whatever falls due while they run) to completion, or
   * until the worker stops; returns how many attempts it started. For tests and tools; the
   * loop does the same in the background.
   */
  async deliverDue(): Promise<number> {
    let started = 0;
    for (;;) {
      const rows = this.stopping ? [] : await this.claim();
      for (const row of rows) this.launch(row);
      started += rows.length;
      if (rows.length > 0) continue;
      if (this.running.size === 0) return started;
      await Promise.race(this.running);
    }
  }

  private limitFor(hostKey: string): number {
    return this.unresponsive.has(hostKey) ? 1 : this.perHost;
  }

  /** Leases what there is room for: the offered deliveries first, else (or if none was left) a scan's. */
  private async claim(): Promise<WebhookDeliveryRow[]> {
    if (this.maxInFlight - this.running.size <= 0) return [];
    const now = this.options.clock.now();
    const offered = this.offered.splice(0);
    if (offered.length > 0) {
      // An offer may have gone stale (taken by a scan or another worker meanwhile).
      const leased = await this.lease(offered, now);
      if (leased.length > 0) return leased;
    }
    const excludedHosts = [...this.inFlight]
      .filter(([hostKey, count]) => count >= this.limitFor(hostKey))
      .map(([hostKey]) => hostKey);
    const candidates = await scanDue(this.options.db, {
      now,
      perHost: this.perHost,
      excludedHosts,
      limit: SCAN_LIMIT,
    });
    return this.lease(candidates, now);
  }

  /** Leases the candidates this worker has room for, in order, within the in-flight and per-receiver limits. */
  private lease(candidates: readonly DueDelivery[], now: Date): Promise<WebhookDeliveryRow[]> {
    const free = this.maxInFlight - this.running.size;
    const taken = new Map<string, number>();
    const ids: string[] = [];
    for (const candidate of candidates) {
      if (ids.length >= free) break;
      const busy = (this.inFlight.get(candidate.host_key) ?? 0) + (taken.get(candidate.host_key) ?? 0);
      if (busy >= this.limitFor(candidate.host_key)) continue;
      taken.set(candidate.host_key, (taken.get(candidate.host_key) ?? 0) + 1);
      ids.push(candidate.id);
    }
    return leaseDeliveries(this.options.db, {
      ids,
      owner: this.id,
      now,
      leaseUntil: new Date(now.getTime() + this.leaseMs),
    });
  }

  private launch(row: WebhookDeliveryRow): void {
    const hostKey = row.host_key;
    this.inFlight.set(hostKey, (this.inFlight.get(hostKey) ?? 0) + 1);
    const attempt: Promise<void> = this.run(row).finally(() => {
      const left = (this.inFlight.get(hostKey) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(hostKey);
      else this.inFlight.set(hostKey, left);
      this.running.delete(attempt);
      this.loop.poke();
    });
    this.running.add(attempt);
  }

  private async run(row: WebhookDeliveryRow): Promise<void> {
    try {
      const { outcome } = await this.options.attempt(row, this.id);
      if (!outcome.success && outcome.error === "connection_failed") this.unresponsive.add(row.host_key);
      else this.unresponsive.delete(row.host_key);
    } catch (error) {
      // The lease expires and the attempt is made again; nothing is lost.
      this.options.logger.error({ err: error, deliveryId: row.id }, "webhook attempt could not be recorded");
    }
  }

  private async step(): Promise<StepResult> {
    const rows = await this.claim();
    for (const row of rows) this.launch(row);
    if (rows.length > 0 && this.running.size < this.maxInFlight) return { again: true };
    return { again: false, dueAt: await nextDueAt(this.options.db) };
  }
}
