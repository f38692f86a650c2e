/**
 * The retry schedule of a delivery (docs/api.md, Events): attempt 1 at once, then attempts 2-5
 * after 1 minute, 5 minutes, 30 minutes and 2 hours. Each delay is measured from the moment
 * the previous attempt failed (the end of that attempt, on the service clock), so a receiver
 * always gets the full pause after a failure; with instant failures the attempts land at
 * 0, 1 min, 6 min, 36 min and 2 h 36 min after the first. No jitter: the schedule is part of
 * the contract and per-receiver concurrency limits already spread the load.
 *
 * After the fifth failed attempt the cycle is exhausted: the delivery is paused with the
 * account's other deliveries, and a replay or resume starts a new cycle of five.
 */
export const RETRY_DELAYS_MS: readonly number[] = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000];

/** Attempts in one cycle: the first plus one per delay. */
export const ATTEMPTS_PER_CYCLE = RETRY_DELAYS_MS.length + 1;

/**
 * When the attempt after the `failedAttempts`-th failure of this cycle is due, or undefined
 * when the cycle is exhausted (that was the fifth).
 */
export function nextAttemptAfterFailure(failedAttempts: number, failedAt: Date): Date | undefined {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1)
    throw new RangeError(`failedAttempts must be a positive integer, got ${failedAttempts}`);
  const delay = RETRY_DELAYS_MS[failedAttempts - 1];
  return delay === undefined ? undefined : new Date(failedAt.getTime() + delay);
}
