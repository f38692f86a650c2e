import {
  BackgroundLoop,
  FAILPOINT,
  FailpointError,
  type Clock,
  type Failpoints,
  type StepResult,
} from "@petri/service-kit";
import type { EventEnvelope } from "@petri/contracts/common";
import type { CommittedEvents } from "./committed-events.js";
import type { Kysely } from "kysely";
import type { EventBus, StreamSpec } from "./bus.js";
import { decodeEnvelope } from "./envelope.js";
import { errorMessage, type Logger } from "./internal/async.js";
import { LeasedQueue, type LeasedQueueTable, type MessagingTables } from "@petri/db";
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
  /** First pause after activity (default 1 s, at most idleMs); tests set it to idleMs to switch the poll off. */
  minIdleMs?: number;
  /** Delay before a row whose publish failed is tried again (default min(30 s, 250 ms * 2^(attempts-1))). */
  retryBackoffMs?: (attempts: number) => number;
  /**
   * How long rows handed off by a committing transaction are held for it (default 10 s): its
   * publish normally ends in milliseconds; after a crash the relay's runs take them over then.
   */
  handOffHoldMs?: number;
}

export interface OutboxRelayStats {
  /** Publishes the bus accepted as new messages. */
  published: number;
  /** Publishes the bus recognised as duplicates (an earlier publish had gone through). */
  duplicates: number;
  /** Publishes that failed (the row is retried later). */
  failures: number;
  /** Looks at the outbox (batch claims, whether they found rows or not). */
  looks: number;
}

/**
 * The outbox as a queue: unsent rows in outbox order, leased anonymously (a relay's lease is
 * its whole claim); a failed publish holds its row until the retry is due.
 */
const OUTBOX_QUEUE: LeasedQueueTable<MessagingTables, "outbox"> = {
  table: "outbox",
  waiting: (eb) => eb("sent_at", "is", null),
  orderBy: ["seq"],
  attempts: "attempts",
  retryAt: "lease_until",
};

/** A row to publish: from a leased batch (decoded on publish) or handed off in memory. */
interface OutgoingEvent {
  id: string;
  attempts: number;
  subject: string;
  envelope: () => EventEnvelope;
}

const defaultBackoff = (attempts: number) => Math.min(30_000, 250 * 2 ** Math.max(0, attempts - 1));

/**
 * Publishes the service's outbox rows to the bus, in outbox order, and marks a row sent
 * only after the bus acknowledged it. A batch is leased from the outbox (a LeasedQueue:
 * replicas share the work, nothing is held while publishing); a relay that dies leaves its
 * lease to expire and a later run republishes, which the bus dedupes by event id.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly backoff: (attempts: number) => number;
  private readonly loop: BackgroundLoop;
  private readonly queue: LeasedQueue<MessagingTables, "outbox">;
  private streamReady = false;
  /** The earliest retry a failed publish scheduled since the last step (the loop wakes for it). */
  private retryDueAt: Date | undefined;
  private readonly counters: OutboxRelayStats = { published: 0, duplicates: 0, failures: 0, looks: 0 };
  private readonly db: Kysely<MessagingTables>;
  private readonly handOffHoldMs: number;
  private readonly handedOff: EventEnvelope[] = [];
  private handOffDrain: Promise<void> | undefined;

  /**
   * The hand-off of a unit of work (D333): while the relay runs, the rows a transaction records
   * are written held for a while, and once it committed its events are published from memory,
   * in commit order, and marked sent; no lease, no read of the rows. Should this process die
   * first, the held rows fall due when the hold ends and any relay publishes them (the bus
   * dedupes a repeat). While the relay is stopped, rows are not held and wait for its runs.
   */
  readonly committedEvents: CommittedEvents = {
    holdUntil: () =>
      this.loop.running() ? new Date(this.opts.clock.now().getTime() + this.handOffHoldMs) : undefined,
    committed: (envelopes) => {
      this.handedOff.push(...envelopes);
      this.handOffDrain ??= this.drainHandOff();
      // The drain goes on while anything is handed off, so it ends after these too.
      return this.handOffDrain;
    },
  };

  constructor(private readonly opts: OutboxRelayOptions) {
    this.db = opts.db as Kysely<MessagingTables>;
    this.queue = new LeasedQueue(this.db, OUTBOX_QUEUE);
    this.batchSize = opts.batchSize ?? 100;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.backoff = opts.retryBackoffMs ?? defaultBackoff;
    this.handOffHoldMs = opts.handOffHoldMs ?? 10_000;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1)
      throw new Error("batchSize must be a positive integer");
    this.loop = new BackgroundLoop({
      name: "outbox-relay",
      clock: opts.clock,
      logger: opts.logger,
      pollMs: opts.idleMs,
      minPollMs: opts.minIdleMs,
      step: () => this.step(),
    });
  }

  /** Starts the background loop (idempotent). */
  start(): void {
    this.loop.start();
  }

  /** Stops the loop after the batch in progress, and waits for the hand-offs in progress. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await this.handOffDrain;
  }

  /** True while the background loop runs (false after stop() or a failpoint "crash"). */
  running(): boolean {
    return this.loop.running();
  }

  /** Wake the loop now (call after committing a transaction that recorded events). */
  poke(): void {
    this.loop.poke();
  }

  stats(): OutboxRelayStats {
    return { ...this.counters };
  }

  // A failpoint "crash" (FailpointError) stops the loop right there, leases and all.
  private async step(): Promise<StepResult> {
    this.retryDueAt = undefined;
    const claimed = await this.runOnce();
    if (claimed >= this.batchSize) return { again: true };
    return { again: false, dueAt: this.retryDueAt };
  }

  /** Claims and publishes one batch; returns how many rows it claimed. */
  async runOnce(): Promise<number> {
    if (!this.streamReady) {
      await this.opts.bus.ensureStream(this.opts.stream);
      this.streamReady = true;
    }
    const rows = await this.claim();
    this.counters.looks += 1;
    if (rows.length === 0) return 0;
    rows.sort((a, b) => Number(a.seq) - Number(b.seq));
    const outgoing = rows.map((row) => ({
      id: row.id,
      attempts: row.attempts,
      subject: row.subject,
      envelope: () => decodeEnvelope(new Uint8Array(row.envelope)),
    }));
    // The rest of the batch goes back unclaimed, the attempt not counted.
    const sent = await this.publishInOrder(outgoing, (rest) => this.queue.release(rest));
    if (sent.length > 0) await this.markSent(sent);
    return rows.length;
  }

  /**
   * Publishes `batch` in order and returns the ids the bus acknowledged. The first failed
   * publish ends it: that row waits for its backoff and `giveBack` returns the rest (other rows
   * may overtake it, which consumers tolerate: events carry aggregate versions). A failpoint
   * "crash" throws out of it with nothing more written: the rows stay leased or held.
   */
  private async publishInOrder(
    batch: readonly OutgoingEvent[],
    giveBack: (rest: readonly { id: string }[]) => Promise<unknown>,
  ): Promise<string[]> {
    const sent: string[] = [];
    for (const [index, event] of batch.entries()) {
      try {
        if (!this.opts.stream.subjects.some((f) => subjectMatches(f, event.subject))) {
          throw new Error(`subject ${event.subject} is not in stream ${this.opts.stream.name}`);
        }
        const ack = await publishInSpan(this.opts.bus, event.envelope());
        if (ack.duplicate) this.counters.duplicates += 1;
        else this.counters.published += 1;
      } catch (err) {
        this.counters.failures += 1;
        await this.recordFailure(event, err);
        // The bus is probably down: don't wait out a timeout per row.
        await giveBack(batch.slice(index + 1));
        break;
      }
      await this.opts.failpoints.hit(FAILPOINT.afterPubackBeforeMarkSent);
      sent.push(event.id);
    }
    return sent;
  }

  private claim() {
    const now = this.opts.clock.now();
    return this.queue.lease({
      now,
      leaseUntil: new Date(now.getTime() + this.leaseMs),
      limit: this.batchSize,
    });
  }

  private async markSent(ids: string[]): Promise<void> {
    await this.queue.complete(
      ids.map((id) => ({ id })),
      { sent_at: this.opts.clock.now(), last_error: null },
    );
  }

  /** Publishes what committing transactions handed off, a batch at a time, until none is left. */
  private async drainHandOff(): Promise<void> {
    try {
      while (this.handedOff.length > 0) {
        const batch = this.handedOff.splice(0, this.batchSize);
        try {
          await this.publishHandedOff(batch);
        } catch (err) {
          // The rows stay held; when the hold ends the relay's runs publish them.
          this.opts.logger.warn({ err: errorMessage(err), events: batch.length }, "outbox hand-off failed");
        }
      }
    } finally {
      this.handOffDrain = undefined;
    }
  }

  private async publishHandedOff(batch: readonly EventEnvelope[]): Promise<void> {
    if (!this.loop.running()) {
      this.loop.poke();
      return; // stopped meanwhile (or a failpoint "crash"): the held rows wait for the hold to end
    }
    try {
      await this.opts.failpoints.hit(FAILPOINT.afterCommitBeforeOutboxPublish);
      // A hand-off's row was never leased (no attempt counted): the first failure counts one.
      const outgoing = batch.map((envelope) => ({
        id: envelope.id,
        attempts: 1,
        subject: envelope.subject,
        envelope: () => envelope,
      }));
      const sent = await this.publishInOrder(outgoing, (rest) => this.releaseHeld(rest));
      if (sent.length > 0) await this.markSent(sent);
    } catch (err) {
      // As in a run, a fault test's failpoint "crash" stops the relay, its rows still held.
      if (!(err instanceof FailpointError)) throw err;
      this.opts.logger.warn({ failpoint: err.failpoint }, "outbox relay stopped by failpoint");
      void this.loop.stop();
    }
  }

  /** Ends the hold of handed-off rows at once, for the relay's runs. */
  private async releaseHeld(rows: readonly { id: string }[]): Promise<void> {
    const now = this.opts.clock.now();
    for (const row of rows) await this.queue.retry(row, now);
    this.loop.poke();
  }

  private async recordFailure(row: { id: string; attempts: number }, err: unknown): Promise<void> {
    const message = errorMessage(err);
    const retryAt = new Date(this.opts.clock.now().getTime() + this.backoff(row.attempts));
    this.opts.logger.warn({ eventId: row.id, attempts: row.attempts, err: message }, "outbox publish failed");
    await this.queue.retry({ id: row.id }, retryAt, { last_error: message.slice(0, 2_000) });
    if (!this.retryDueAt || retryAt < this.retryDueAt) this.retryDueAt = retryAt;
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
