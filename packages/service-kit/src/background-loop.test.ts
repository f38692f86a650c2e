import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BackgroundLoop, type StepResult } from "./background-loop.js";
import { systemClock } from "./clock.js";
import { FailpointError } from "./failpoints.js";
import { createLogger } from "./logger.js";

const logger = createLogger({ service: "background-loop-test", level: "silent" });
const MIN_MS = 100;

/** A loop whose steps report `result(n)` for the n-th step (1-based) or throw; counts the steps. */
function loopReporting(result: (step: number) => StepResult) {
  let steps = 0;
  const loop = new BackgroundLoop({
    name: "test",
    clock: systemClock,
    logger,
    minPollMs: MIN_MS,
    pollMs: 60_000,
    step: async () => {
      steps += 1;
      return result(steps);
    },
  });
  return { loop, steps: () => steps };
}

/** Stops the loop and lets the step or wait in progress finish. */
async function stop(loop: BackgroundLoop): Promise<void> {
  const stopped = loop.stop();
  await vi.runOnlyPendingTimersAsync();
  await stopped;
}

describe("BackgroundLoop", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("looks again at the shortest interval while known work is due but could not be taken", async () => {
    // e.g. a delivery that fell due while still leased by a crashed worker's attempt
    const { loop, steps } = loopReporting(() => ({ again: false, dueAt: new Date(Date.now() - 1) }));
    loop.start();
    await vi.advanceTimersByTimeAsync(10 * MIN_MS + MIN_MS / 2);
    // the first step, then one every MIN_MS: no backing off while the work is due
    expect(steps()).toBe(11);
    await stop(loop);
  });

  it("backs off (doubling from the shortest interval) when nothing is due", async () => {
    const { loop, steps } = loopReporting(() => ({ again: false }));
    loop.start();
    await vi.advanceTimersByTimeAsync(10 * MIN_MS + MIN_MS / 2);
    // looks at 0, then after 100, 200, 400 ms (700 ms), the next at 1,500 ms
    expect(steps()).toBe(4);
    await stop(loop);
  });

  it("a poke makes an idle loop step at once", async () => {
    const { loop, steps } = loopReporting(() => ({ again: false }));
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(steps()).toBe(1);
    loop.poke();
    await vi.advanceTimersByTimeAsync(0);
    expect(steps()).toBe(2);
    await stop(loop);
  });

  it("a step that hits a failpoint stops the loop like a crash; start() runs it again", async () => {
    const { loop, steps } = loopReporting((step) => {
      if (step === 1) throw new FailpointError("test_point");
      return { again: false };
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(10 * MIN_MS);
    expect([steps(), loop.running()]).toEqual([1, false]);
    loop.poke();
    await vi.advanceTimersByTimeAsync(10 * MIN_MS);
    expect(steps()).toBe(1);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    // a step at once, and one more for the poke made while the loop was down
    expect([steps(), loop.running()]).toEqual([3, true]);
    await stop(loop);
    expect(loop.running()).toBe(false);
  });

  it("any other failure is retried after a back-off", async () => {
    const { loop, steps } = loopReporting((step) => {
      if (step === 1) throw new Error("database unavailable");
      return { again: false };
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(499);
    expect(steps()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect([steps(), loop.running()]).toEqual([2, true]);
    await stop(loop);
  });
});
