import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReadModelArrivals, readSettled } from "./read-model-wait.js";

// The waits run on fake timers (setTimeout and performance.now): the tests say when time
// passes, so they assert what happens at which moment without measuring the machine.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether `promise` has settled, after letting pending callbacks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe("ReadModelArrivals", () => {
  it("wakes the waiters of the announced key at once, and only them", async () => {
    const arrivals = new ReadModelArrivals();
    const first = arrivals.next("exp_a", 60_000);
    const second = arrivals.next("exp_a", 60_000);
    const other = arrivals.next("exp_b", 30);
    arrivals.announce("exp_a");
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(true);
    expect(await settled(other)).toBe(false);
    await vi.advanceTimersByTimeAsync(30);
    expect(await settled(other)).toBe(true);
  });

  it("gives up after the time asked for when nothing is announced, and forgets the waiter", async () => {
    const arrivals = new ReadModelArrivals();
    const waiting = arrivals.next("exp_a", 40);
    await vi.advanceTimersByTimeAsync(39);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
    // Nobody waits any more: an announcement is a no-op, and a new wait is not woken by the old one.
    arrivals.announce("exp_a");
    const again = arrivals.next("exp_a", 40);
    expect(await settled(again)).toBe(false);
    await vi.advanceTimersByTimeAsync(40);
    expect(await settled(again)).toBe(true);
  });
});

describe("readSettled", () => {
  it("reads again on each announcement until the row is settled", async () => {
    const arrivals = new ReadModelArrivals();
    const rows: Array<string | undefined> = [undefined, "draft", "open"];
    let reads = 0;
    const reading = readSettled({
      key: "exp_a",
      read: async () => rows[reads++],
      settled: (row) => row === "open",
      arrivals,
      wait: { timeoutMs: 60_000, pollMs: 60_000 },
    });
    for (let i = 0; i < 2; i += 1) {
      await vi.advanceTimersByTimeAsync(5);
      arrivals.announce("exp_a");
    }
    expect(await reading).toBe("open");
    expect(reads).toBe(3);
  });

  it("polls every pollMs without announcements, and answers with the last read once the time is up", async () => {
    const arrivals = new ReadModelArrivals();
    let reads = 0;
    const reading = readSettled({
      key: "exp_a",
      read: async () => (++reads, "draft"),
      settled: () => false,
      arrivals,
      wait: { timeoutMs: 100, pollMs: 20 },
    });
    expect(await settled(reading)).toBe(false);
    expect(reads).toBe(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(reads).toBe(2);
    await vi.advanceTimersByTimeAsync(79);
    expect(await settled(reading)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await reading).toBe("draft");
    expect(reads).toBe(6);
  });

  it("does not wait for a row settled at the first read", async () => {
    const arrivals = new ReadModelArrivals();
    let reads = 0;
    const reading = readSettled({
      key: "exp_a",
      read: async () => (++reads, "open"),
      settled: (value) => value === "open",
      arrivals,
      wait: { timeoutMs: 60_000, pollMs: 60_000 },
    });
    expect(await settled(reading)).toBe(true);
    expect(await reading).toBe("open");
    expect(reads).toBe(1);
  });
});
