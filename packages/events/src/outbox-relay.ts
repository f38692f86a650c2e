import { FAILPOINT, FailpointError, SafetyPoll, type Clock, type Failpoints } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { EventBus, StreamSpec } from "./bus.js";
import { decodeEnvelope } from "./envelope.js";
import { errorMessage, WakeSignal, type Logger } from "./internal/async.js";
import type { MessagingTables } from "@petri/db";
import { subjectMatches } from "./subjects.js";
import { publishInSpan } from "./messaging-spans.js";

export interface OutboxRelayOptions {
  /** Kysely bound to the service's schema (holding its `outbox` table). */
  db: Kysely<any>;
  bus: EventBus;
  /** The stream this service publishes to (streamFor(service)). */
  stream: StreamSpec;
  logger: Logger;
  clock: Clock;
  failpoints: Failpoints;
  /** Rows claimed per batch (default 100). */
  batchSize?: number;
  /** How long a claimed batch stays reserved for this relay (default 30 s). */
  leaseMs?: number;
  /**
   * Longest pause between two looks at an empty outbox (default DEFAULT_SAFETY_POLL_MS).
   * Commits poke() the relay, so this poll only finds rows whose poke was lost (a crash, a
   * lease that expired); it starts at 1 s after activity and backs off while idle.
   */
  idleMs?: number;
  /** Delay before a row whose publish failed is tried again (default min(30 s, 250 ms * 2^(attempts-1))). */
  retryBackoffMs?: (attempts: number) => number;
}

export interface OutboxRelayStats {
  /** Publishes the bus accepted as new messages. */
  published: number;
  /** Publishes the bus recognised as duplicates (an earlier publish had gone through). */
  duplicates: number;
  /** Publishes that failed (the row is retried later). */
  failures: number;
}

interface ClaimedRow {
  seq: number | string;
  id: string;
  subject: string;
  envelope: Uint8Array;
  attempts: number;
}

const defaultBackoff = (attempts: number) => Math.min(30_000, 250 * 2 ** Math.max(0, attempts - 1));

/**
 * Publishes the service's outbox rows to the bus, in outbox order, and marks a row sent
 * only after the bus acknowledged it. A batch is claimed with a short UPDATE ... FOR UPDATE
 * SKIP LOCKED that leases the rows (replicas share the work, nothing is held while
 * publishing); a relay that dies leaves its lease to expire and a later run republishes,
 * which the bus dedupes by event id.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly safetyPoll: SafetyPoll;
  private readonly backoff: (attempts: number) => number;
  private readonly wake = new WakeSignal();
  private loop: Promise<void> | undefined;
  private stopping = false;
  private streamReady = false;
  private crashed = false;
  private readonly counters: OutboxRelayStats = { published: 0, duplicates: 0, failures: 0 };
  private readonly db: Kysely<MessagingTables>;

  constructor(private readonly opts: OutboxRelayOptions) {
    this.db = opts.db as Kysely<MessagingTables>;
    this.batchSize = opts.batchSize ?? 100;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.safetyPoll = new SafetyPoll(opts.idleMs === undefined ? {} : { maxMs: opts.idleMs });
    this.backoff = opts.retryBackoffMs ?? defaultBackoff;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1)
      throw new Error("batchSize must be a positive integer");
  }

  /** Starts the background loop (idempotent). */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.crashed = false;
    this.loop = this.run().finally(() => {
      this.loop = undefined;
    });
  }

  /** Stops the loop after the batch in progress. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.notify();
    await this.loop;
  }

  /** True while the background loop runs (false after stop() or a failpoint "crash"). */
  running(): boolean {
    return this.loop !== undefined && !this.crashed;
  }

  /** Wake the loop now (call after committing a transaction that recorded events). */
  poke(): void {
    this.wake.notify();
  }

  stats(): OutboxRelayStats {
    return { ...this.counters };
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      try {
        const n = await this.runOnce();
        failures = 0;
        if (n > 0) this.safetyPoll.activity();
        if (n >= this.batchSize) continue;
      } catch (err) {
        if (err instanceof FailpointError) {
          // A simulated crash: stop right here, leases and all, like a dead process would.
          this.crashed = true;
          this.opts.logger.warn({ failpoint: err.failpoint }, "outbox relay stopped by failpoint");
          return;
        }
        failures += 1;
        this.opts.logger.error({ err: errorMessage(err) }, "outbox relay batch failed");
        await this.pause(Math.min(30_000, this.safetyPoll.minMs * 2 ** Math.min(failures, 8)));
        continue;
      }
      if (await this.pause(this.safetyPoll.next())) this.safetyPoll.activity();
    }
  }

  /** Waits ms on the clock or until poked; true when poked. */
  private async pause(ms: number): Promise<boolean> {
    if (this.stopping) return false;
    const woken = this.wake.wait();
    let poked = false;
    const cancel = new AbortController();
    try {
      await Promise.race([
        woken.promise.then(() => {
          poked = true;
        }),
        this.opts.clock.sleep(ms, cancel.signal),
      ]);
    } finally {
      woken.cancel();
      cancel.abort();
    }
    return poked;
  }

  /** Claims and publishes one batch; returns how many rows it claimed. */
  async runOnce(): Promise<number> {
    if (!this.streamReady) {
      await this.opts.bus.ensureStream(this.opts.stream);
      this.streamReady = true;
    }
    const rows = await this.claim();
    if (rows.length === 0) return 0;
    rows.sort((a, b) => Number(a.seq) - Number(b.seq));
    const sent: string[] = [];
    let index = 0;
    try {
      for (; index < rows.length; index += 1) {
        const row = rows[index]!;
        let duplicate: boolean;
        try {
          if (!this.opts.stream.subjects.some((f) => subjectMatches(f, row.subject))) {
            throw new Error(`subject ${row.subject} is not in stream ${this.opts.stream.name}`);
          }
          const ack = await publishInSpan(this.opts.bus, decodeEnvelope(new Uint8Array(row.envelope)));
          duplicate = ack.duplicate;
        } catch (err) {
          this.counters.failures += 1;
          await this.recordFailure(row, err);
          // The bus is probably down: don't wait out a timeout per row. The rest of the
          // batch goes back unclaimed; the failed row waits for its backoff (other rows may
          // overtake it, which consumers tolerate: events carry aggregate versions).
          await this.release(rows.slice(index + 1));
          index = rows.length;
          break;
        }
        if (duplicate) this.counters.duplicates += 1;
        else this.counters.published += 1;
        await this.opts.failpoints.hit(FAILPOINT.afterPubackBeforeMarkSent);
        sent.push(row.id);
      }
    } finally {
      // Also on a failpoint "crash" nothing more is written: the rows stay leased.
      if (sent.length > 0 && index >= rows.length) await this.markSent(sent);
    }
    return rows.length;
  }

  private async claim(): Promise<ClaimedRow[]> {
    const now = this.opts.clock.now();
    const leaseUntil = new Date(now.getTime() + this.leaseMs);
    return (await this.db
      .updateTable("outbox")
      .set((eb) => ({ lease_until: leaseUntil, attempts: eb("attempts", "+", 1) }))
      .where("id", "in", (eb) =>
        eb
          .selectFrom("outbox")
          .select("id")
          .where("sent_at", "is", null)
          .where((w) => w.or([w("lease_until", "is", null), w("lease_until", "<", now)]))
          .orderBy("seq")
          .limit(this.batchSize)
          .forUpdate()
          .skipLocked(),
      )
      .returning(["seq", "id", "subject", "envelope", "attempts"])
      .execute()) as ClaimedRow[];
  }

  private async markSent(ids: string[]): Promise<void> {
    await this.db
      .updateTable("outbox")
      .set({ sent_at: this.opts.clock.now(), lease_until: null, last_error: null })
      .where("id", "in", ids)
      .execute();
  }

  private async recordFailure(row: ClaimedRow, err: unknown): Promise<void> {
    const message = errorMessage(err);
    const retryAt = new Date(this.opts.clock.now().getTime() + this.backoff(row.attempts));
    this.opts.logger.warn({ eventId: row.id, attempts: row.attempts, err: message }, "outbox publish failed");
    await this.db
      .updateTable("outbox")
      .set({ last_error: message.slice(0, 2_000), lease_until: retryAt })
      .where("id", "=", row.id)
      .execute();
  }

  private async release(rows: ClaimedRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .updateTable("outbox")
      .set((eb) => ({ lease_until: null, attempts: eb("attempts", "-", 1) }))
      .where(
        "id",
        "in",
        rows.map((r) => r.id),
      )
      .execute();
  }

  /** Unsent rows and the age of the oldest one (for metrics and readiness). */
  async lag(): Promise<{ unsent: number; oldestAgeMs: number }> {
    const row = await this.db
      .selectFrom("outbox")
      .select((eb) => [eb.fn.countAll().as("unsent"), eb.fn.min("created_at").as("oldest")])
      .where("sent_at", "is", null)
      .executeTakeFirst();
    const unsent = Number(row?.unsent ?? 0);
    const oldest = row?.oldest ? new Date(row.oldest as Date | string).getTime() : undefined;
    return {
      unsent,
      oldestAgeMs: oldest === undefined ? 0 : Math.max(0, this.opts.clock.now().getTime() - oldest),
    };
  }

  /** Deletes rows sent more than olderThanMs ago (keep at least 24 h); returns how many. */
  async purgeSent(olderThanMs: number): Promise<number> {
    const cutoff = new Date(this.opts.clock.now().getTime() - olderThanMs);
    const result = await this.db
      .deleteFrom("outbox")
      .where("sent_at", "is not", null)
      .where("sent_at", "<", cutoff)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
