import { describe, expect, it } from "vitest";
import { ReadModelArrivals, readSettled } from "./read-model-wait.js";

describe("ReadModelArrivals", () => {
  it("wakes the waiters of the announced key at once, and only them", async () => {
    const arrivals = new ReadModelArrivals();
    const woken: string[] = [];
    const first = arrivals.next("exp_a", 60_000).then(() => woken.push("a1"));
    const second = arrivals.next("exp_a", 60_000).then(() => woken.push("a2"));
    const other = arrivals.next("exp_b", 30).then(() => woken.push("b"));
    arrivals.announce("exp_a");
    await Promise.all([first, second]);
    expect(woken).toEqual(["a1", "a2"]);
    await other;
    expect(woken).toEqual(["a1", "a2", "b"]);
  });

  it("gives up after the time asked for when nothing is announced, and forgets the waiter", async () => {
    const arrivals = new ReadModelArrivals();
    const started = performance.now();
    await arrivals.next("exp_a", 40);
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    // Nobody waits any more: an announcement is a no-op, and a new wait is not woken by the old one.
    arrivals.announce("exp_a");
    const late = performance.now();
    await arrivals.next("exp_a", 40);
    expect(performance.now() - late).toBeGreaterThanOrEqual(35);
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
      await new Promise((resolve) => setTimeout(resolve, 5));
      arrivals.announce("exp_a");
    }
    expect(await reading).toBe("open");
    expect(reads).toBe(3);
  });

  it("polls without announcements, and answers with the last read once the time is up", async () => {
    const arrivals = new ReadModelArrivals();
    let reads = 0;
    const started = performance.now();
    const row = await readSettled({
      key: "exp_a",
      read: async () => (++reads, "draft"),
      settled: () => false,
      arrivals,
      wait: { timeoutMs: 100, pollMs: 20 },
    });
    expect(row).toBe("draft");
    expect(reads).toBeGreaterThanOrEqual(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  });

  it("does not wait for a row settled at the first read", async () => {
    const arrivals = new ReadModelArrivals();
    const started = performance.now();
    const row = await readSettled({
      key: "exp_a",
      read: async () => "open",
      settled: (value) => value === "open",
      arrivals,
      wait: { timeoutMs: 60_000, pollMs: 60_000 },
    });
    expect(row).toBe("open");
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
