/** All time comes from a Clock so tests can move time instead of sleeping. */
export interface Clock {
  now(): Date;
  /** Resolves after `ms` of this clock's time. A fake clock resolves when advanced past it. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      timer.unref?.();
      function done() {
        signal?.removeEventListener("abort", done);
        clearTimeout(timer);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    }),
};
