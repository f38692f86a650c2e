/**
 * A Clock whose time moves only when a test says so, so retry schedules (1 min, 5 min,
 * 30 min, 2 h), rate-limit windows and token expiry are tested without sleeping.
 */
import type { Clock } from "@petri/service-kit";

interface Sleeper {
  deadline: number;
  /** Tie-breaker: sleepers due at the same instant wake in the order they slept. */
  order: number;
  wake: () => void;
}

/** Lets promise continuations run, so woken code can act (and sleep again) before time moves on. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export class FakeClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];
  private nextOrder = 0;

  constructor(start: Date | string | number = "2026-01-01T00:00:00.000Z") {
    this.current = new Date(start).getTime();
    if (Number.isNaN(this.current)) throw new Error(`FakeClock: invalid start ${String(start)}`);
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Resolves when the clock reaches now + ms, or at once when `signal` aborts (like systemClock). */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const sleeper: Sleeper = {
        deadline: this.current + ms,
        order: this.nextOrder++,
        wake: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.sleepers.push(sleeper);
    });
  }

  /** How many sleeps are waiting; handy to wait until code under test has gone to sleep. */
  get pendingSleeps(): number {
    return this.sleepers.length;
  }

  /**
   * Moves time forward by `ms`, waking due sleepers one at a time in deadline order, with
   * the clock showing each one's deadline when it wakes. Code that sleeps again while
   * woken is woken again if its new deadline also falls within the advance.
   */
  async advance(ms: number): Promise<void> {
    if (ms < 0) throw new Error("FakeClock.advance: time does not go backwards; use set()");
    const target = this.current + ms;
    await settle();
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.current = Math.max(this.current, next.deadline);
      this.sleepers = this.sleepers.filter((s) => s !== next);
      next.wake();
      await settle();
    }
    this.current = target;
  }

  /**
   * Sets the time (forwards or backwards, like a wall clock being corrected) and wakes every
   * sleeper now due, in deadline order. Returns after their continuations had a chance to run.
   */
  async set(date: Date | string | number): Promise<void> {
    const time = new Date(date).getTime();
    if (Number.isNaN(time)) throw new Error(`FakeClock.set: invalid date ${String(date)}`);
    this.current = time;
    for (;;) {
      const next = this.nextDue(time);
      if (!next) break;
      this.sleepers = this.sleepers.filter((s) => s !== next);
      next.wake();
      await settle();
    }
  }

  private nextDue(limit: number): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const sleeper of this.sleepers) {
      if (sleeper.deadline > limit) continue;
      if (
        !best ||
        sleeper.deadline < best.deadline ||
        (sleeper.deadline === best.deadline && sleeper.order < best.order)
      ) {
        best = sleeper;
      }
    }
    return best;
  }
}
