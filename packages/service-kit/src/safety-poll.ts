/**
 * How long a background loop with nothing to do waits before looking again on its own.
 *
 * Work is normally announced by a wake-up right after the commit that created it, so this
 * poll is only a safety net: for a wake-up that was lost (a crash between commit and wake,
 * work written by another process) it bounds the delay, and at idle it is the loop's whole
 * cost. It starts at `minMs` after the loop found work or was woken (when a lost wake-up is
 * most likely) and doubles on every empty look, up to `maxMs`.
 */
export interface SafetyPollOptions {
  /** First wait after activity (default 1 s, and never above maxMs). */
  minMs?: number;
  /** Longest wait when idle (default DEFAULT_SAFETY_POLL_MS). */
  maxMs?: number;
}

/**
 * The longest idle wait of every background loop (outbox relays, workers, the in-process
 * bus's consumers scale it): PETRI_SAFETY_POLL_MS, default 10 s. A lost wake-up costs at
 * most this much latency, never an event.
 */
export const DEFAULT_SAFETY_POLL_MS = safetyPollFromEnv(process.env.PETRI_SAFETY_POLL_MS, 10_000);

const DEFAULT_MIN_MS = 1_000;

export function safetyPollFromEnv(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 10 || ms > 3_600_000)
    throw new Error(`PETRI_SAFETY_POLL_MS must be an integer number of milliseconds in 10..3600000`);
  return ms;
}

export class SafetyPoll {
  readonly minMs: number;
  readonly maxMs: number;
  private current: number;

  constructor(options: SafetyPollOptions = {}) {
    this.maxMs = options.maxMs ?? DEFAULT_SAFETY_POLL_MS;
    this.minMs = Math.min(options.minMs ?? DEFAULT_MIN_MS, this.maxMs);
    if (!(this.minMs > 0) || !(this.maxMs > 0))
      throw new RangeError("safety poll intervals must be positive");
    this.current = this.minMs;
  }

  /** The wait before the next look; each call without activity() in between doubles it. */
  next(): number {
    const wait = this.current;
    this.current = Math.min(this.maxMs, this.current * 2);
    return wait;
  }

  /** The loop found work or was woken: look again soon if the next wake-up goes missing. */
  activity(): void {
    this.current = this.minMs;
  }
}
