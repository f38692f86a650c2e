/** Counting semaphore: at most `limit` holders at once. */
export class Semaphore {
  private active = 0;
  private readonly waiters: Array<() => void> = [];
  private readonly idleWaiters: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`concurrency must be a positive integer, got ${limit}`);
  }

  get inUse(): number {
    return this.active;
  }

  get available(): number {
    return this.limit - this.active;
  }

  acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) {
      next(); // the slot passes straight to the next waiter
      return;
    }
    this.active -= 1;
    if (this.active === 0) for (const idle of this.idleWaiters.splice(0)) idle();
  }

  /** Resolves once nobody holds a slot. */
  idle(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}

/**
 * A level-triggered wake-up: notify() makes the current or next wait() return at once.
 * Several loops can wait on one Signal; notify() wakes all of them.
 */
export class WakeSignal {
  private pending = false;
  private waiters: Array<() => void> = [];

  notify(): void {
    this.pending = true;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves on notify(); consumes a pending notification. */
  wait(): { promise: Promise<void>; cancel(): void } {
    if (this.pending) {
      this.pending = false;
      return { promise: Promise.resolve(), cancel: () => undefined };
    }
    let resolveFn: () => void = () => undefined;
    const promise = new Promise<void>((resolve) => {
      resolveFn = () => {
        this.pending = false;
        resolve();
      };
      this.waiters.push(resolveFn);
    });
    return {
      promise,
      cancel: () => {
        this.waiters = this.waiters.filter((w) => w !== resolveFn);
      },
    };
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/** Structural pino-style logger, so any pino child logger fits. */
export interface Logger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  debug(obj: object | string, msg?: string): void;
}
