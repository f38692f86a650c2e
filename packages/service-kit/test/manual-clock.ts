/**
 * A minimal controllable Clock for service-kit's own tests. (The full FakeClock lives in
 * @petri/testkit, which depends on service-kit; importing it here would make a cycle.)
 */
import type { Clock } from "../src/clock.js";

export class ManualClock implements Clock {
  private sleepers: Array<{ deadline: number; wake: () => void }> = [];
  constructor(private current = Date.parse("2026-01-01T00:00:00.000Z")) {}

  now(): Date {
    return new Date(this.current);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper = { deadline: this.current + ms, wake: resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener("abort", () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        resolve();
      });
    });
  }

  get pendingSleeps(): number {
    return this.sleepers.length;
  }

  /** Moves time and wakes due sleepers (all at once; enough for these tests). */
  advance(ms: number): void {
    this.current += ms;
    const due = this.sleepers.filter((s) => s.deadline <= this.current);
    this.sleepers = this.sleepers.filter((s) => s.deadline > this.current);
    for (const s of due) s.wake();
  }
}

/** Polls `condition` on real time (for I/O-driven state), failing after `ms`. */
export async function eventually(condition: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}
