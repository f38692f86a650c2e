/**
 * A loop that does a step of work, then waits for whichever comes first: a poke, the next
 * due time on the service clock, or the safety poll in real time. Work is announced by a
 * poke after the commit that created it; the safety poll (slow, backing off while idle, see
 * SafetyPoll) only finds work whose wake-up was lost, e.g. rows committed by another replica.
 * It runs in real time so that it does not depend on the clock moving, which a test's fake
 * clock need not do.
 *
 * A step that throws FailpointError (a fault test's stand-in for a crash of this component)
 * stops the loop where it is, leases and all, like a dead process would; any other error is
 * logged and the step tried again after a back-off.
 */
import type { Clock } from "./clock.js";
import { FailpointError } from "./failpoints.js";
import type { Logger } from "./logger.js";
import { SafetyPoll } from "./safety-poll.js";

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
  private readonly safetyPoll: SafetyPoll;
  private abort: AbortController | undefined;
  private done: Promise<void> | undefined;
  private crashed = false;

  constructor(
    private readonly options: {
      name: string;
      clock: Clock;
      /** Only warn and error are used: callers may pass a narrower logger than pino's. */
      logger: Pick<Logger, "warn" | "error">;
      /**
       * Longest wait in real time before looking again (default: DEFAULT_SAFETY_POLL_MS). Undefined
       * means the default, so that a caller passes its own optional setting through as it is.
       */
      pollMs?: number | undefined;
      /** First wait after activity (default 1 s); tests set it to pollMs to switch the poll off. */
      minPollMs?: number | undefined;
      step(): Promise<StepResult>;
    },
  ) {
    this.safetyPoll = new SafetyPoll({
      ...(options.pollMs === undefined ? {} : { maxMs: options.pollMs }),
      ...(options.minPollMs === undefined ? {} : { minMs: options.minPollMs }),
    });
  }

  /** True while the loop runs (false after stop() or a failpoint "crash"). */
  running(): boolean {
    return this.done !== undefined && !this.crashed;
  }

  start(): void {
    if (this.done && !this.crashed) return;
    this.crashed = false;
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
        if (error instanceof FailpointError) {
          this.crashed = true;
          this.options.logger.warn(
            { failpoint: error.failpoint, loop: this.options.name },
            "background loop stopped by failpoint",
          );
          return;
        }
        failures += 1;
        this.options.logger.error(
          { err: error, loop: this.options.name },
          "background step failed; retrying",
        );
        await this.realTimeWait(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)), signal);
        continue;
      }
      if (result.again) {
        this.safetyPoll.activity();
        continue;
      }
      if (await this.idle(result.dueAt, signal)) this.safetyPoll.activity();
    }
  }

  /** Waits for a poke, the due time or the safety poll; true when poked. */
  private async idle(dueAt: Date | undefined, signal: AbortSignal): Promise<boolean> {
    const woken = this.wakeup.wait();
    let poked = false;
    const cancel = new AbortController();
    const both = AbortSignal.any([signal, cancel.signal]);
    const dueIn = dueAt ? dueAt.getTime() - this.options.clock.now().getTime() : undefined;
    // Work that is due but could not be taken (no room, or still leased) is looked at again at
    // the poll's shortest interval: backing off there would leave known work waiting up to the
    // longest one.
    const pollMs = dueIn !== undefined && dueIn <= 0 ? this.safetyPoll.minMs : this.safetyPoll.next();
    const waits: Promise<void>[] = [
      woken.promise.then(() => {
        poked = true;
      }),
      this.realTimeWait(pollMs, both),
    ];
    if (dueIn !== undefined && dueIn > 0) waits.push(this.options.clock.sleep(dueIn, both));
    try {
      await Promise.race(waits);
    } finally {
      woken.cancel();
      cancel.abort();
    }
    return poked;
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
