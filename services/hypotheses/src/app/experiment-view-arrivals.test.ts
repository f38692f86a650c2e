import { describe, expect, it } from "vitest";
import { ExperimentViewArrivals } from "./experiment-view-arrivals.js";

describe("ExperimentViewArrivals", () => {
  it("wakes the waiters of the announced experiment at once, and only them", async () => {
    const arrivals = new ExperimentViewArrivals();
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
    const arrivals = new ExperimentViewArrivals();
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
