/**
 * The bounded wait for an experiment's view (docs/decisions.md, D-NEW-1). An experiment created
 * a moment ago reaches experiment_views only once this service's consumer applied its event, so
 * a request naming it may come first. The consumer announces each view it committed; a request
 * waits for that announcement, and looks again on its own every `pollMs` (the consumer may run
 * in another replica, whose announcements never reach this one), for at most `timeoutMs`.
 */
export interface ExperimentViewWait {
  timeoutMs: number;
  pollMs: number;
}

/** About the latency of a consumer applying a just-committed event, with room to spare. */
export const EXPERIMENT_VIEW_WAIT: ExperimentViewWait = { timeoutMs: 2_000, pollMs: 200 };

export class ExperimentViewArrivals {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** The consumer committed a change to this experiment's view: wake whoever waits for it. */
  announce(experimentId: string): void {
    const waiting = this.waiters.get(experimentId);
    if (!waiting) return;
    this.waiters.delete(experimentId);
    for (const wake of waiting) wake();
  }

  /** Resolves on the next announcement for `experimentId`, or after `ms`, whichever is first. */
  next(experimentId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiting = this.waiters.get(experimentId) ?? new Set<() => void>();
      this.waiters.set(experimentId, waiting);
      const wake = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        if (waiting.size === 0 && this.waiters.get(experimentId) === waiting)
          this.waiters.delete(experimentId);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waiting.add(wake);
    });
  }
}
