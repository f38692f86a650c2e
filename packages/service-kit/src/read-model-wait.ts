/**
 * The bounded wait for a row of an events-fed read model. A request may name an object whose
 * event the service's consumer has not applied yet (it was created a moment ago in another
 * service). The consumer announces each key it committed (`ReadModelArrivals.announce`, from its
 * afterCommit); a request waiting for that key wakes on it, and also looks again on its own every
 * `pollMs` (the consumer may run in another replica, whose announcements never reach this one),
 * for at most `timeoutMs` in all.
 */
export interface ReadModelWait {
  timeoutMs: number;
  pollMs: number;
}

/** About the latency of a consumer applying a just-committed event, with room to spare. */
export const READ_MODEL_WAIT: ReadModelWait = { timeoutMs: 2_000, pollMs: 200 };

export class ReadModelArrivals {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** The consumer committed a change to `key`'s row: wake whoever waits for it. */
  announce(key: string): void {
    const waiting = this.waiters.get(key);
    if (!waiting) return;
    this.waiters.delete(key);
    for (const wake of waiting) wake();
  }

  /** Resolves on the next announcement for `key`, or after `ms`, whichever is first. */
  next(key: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiting = this.waiters.get(key) ?? new Set<() => void>();
      this.waiters.set(key, waiting);
      const wake = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        if (waiting.size === 0 && this.waiters.get(key) === waiting) this.waiters.delete(key);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waiting.add(wake);
    });
  }
}

/**
 * Reads `key`'s row until `settled` accepts it or the wait is over, and returns the last read
 * (undefined: never found). Each read after the first follows an announcement or a poll.
 */
export async function readSettled<Row>(options: {
  key: string;
  read: () => Promise<Row | undefined>;
  settled: (row: Row | undefined) => boolean;
  arrivals: ReadModelArrivals;
  wait: ReadModelWait;
}): Promise<Row | undefined> {
  const { key, read, settled, arrivals, wait } = options;
  const deadline = performance.now() + wait.timeoutMs;
  for (;;) {
    const row = await read();
    const left = deadline - performance.now();
    if (settled(row) || left <= 0) return row;
    await arrivals.next(key, Math.min(wait.pollMs, left));
  }
}
