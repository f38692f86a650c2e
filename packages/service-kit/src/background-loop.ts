/**
 * A loop that does a step of work, then waits for whichever comes first: a poke, the next
 * due time on the service clock, or a short poll interval of real time. The real-time poll
 * finds rows committed by another replica (or by a transaction that poked before it
 * committed) without relying on the clock moving, which a test's fake clock need not do.
 */
import type { Clock } from "./clock.js";
import type { Logger } from "./logger.js";

export interface StepResult {
  /** Run the next step at once (there is more to do and room to do it). */
  again: boolean;
  /** When the next piece of work falls due, on the service clock. */
  dueAt?: Date | undefined;
}

/** A level-triggered wake-up: poke() makes the current or next wait return at once. */
class Wakeup {
  private pending = false;
  private waiter: (() => void) | undefined;

  poke(): void {
    this.pending = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  wait(): { promise: Promise<void>; cancel(): void } {
    if (this.pending) {
      this.pending = false;
      return { promise: Promise.resolve(), cancel: () => undefined };
    }
    const promise = new Promise<void>((resolve) => {
      this.waiter = () => {
        this.pending = false;
        resolve();
      };
    });
    return { promise, cancel: () => (this.waiter = undefined) };
  }
}

export class BackgroundLoop {
  private readonly wakeup = new Wakeup();
  private abort: AbortController | undefined;
  private done: Promise<void> | undefined;

  constructor(
    private readonly options: {
      name: string;
      clock: Clock;
      logger: Logger;
      /** Longest wait in real time before looking again (default 250 ms). */
      pollMs?: number;
      step(): Promise<StepResult>;
    },
  ) {}

  running(): boolean {
    return this.done !== undefined;
  }

  start(): void {
    if (this.done) return;
    const abort = new AbortController();
    this.abort = abort;
    this.done = this.run(abort.signal);
  }

  async stop(): Promise<void> {
    if (!this.done) return;
    this.abort?.abort();
    this.wakeup.poke();
    await this.done;
    this.done = undefined;
  }

  poke(): void {
    this.wakeup.poke();
  }

  private async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      let result: StepResult;
      try {
        result = await this.options.step();
        failures = 0;
      } catch (error) {
        failures += 1;
        this.options.logger.error(
          { err: error, loop: this.options.name },
          "background step failed; retrying",
        );
        await this.realTimeWait(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)), signal);
        continue;
      }
      if (result.again) continue;
      await this.idle(result.dueAt, signal);
    }
  }

  private async idle(dueAt: Date | undefined, signal: AbortSignal): Promise<void> {
    const woken = this.wakeup.wait();
    const cancel = new AbortController();
    const both = AbortSignal.any([signal, cancel.signal]);
    const waits: Promise<void>[] = [woken.promise, this.realTimeWait(this.options.pollMs ?? 250, both)];
    // Work that is due but could not be taken (no room, or leased elsewhere) waits for a poke or the poll.
    const dueIn = dueAt ? dueAt.getTime() - this.options.clock.now().getTime() : undefined;
    if (dueIn !== undefined && dueIn > 0) waits.push(this.options.clock.sleep(dueIn, both));
    try {
      await Promise.race(waits);
    } finally {
      woken.cancel();
      cancel.abort();
    }
  }

  private realTimeWait(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
  }
}
