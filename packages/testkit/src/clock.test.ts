import { describe, expect, it } from "vitest";
import { FakeClock } from "./clock.js";

describe("FakeClock", () => {
  it("starts at the given date and only moves when told", async () => {
    const clock = new FakeClock("2026-03-01T12:00:00.000Z");
    expect(clock.now().toISOString()).toBe("2026-03-01T12:00:00.000Z");
    await clock.advance(1_500);
    expect(clock.now().toISOString()).toBe("2026-03-01T12:00:01.500Z");
  });

  it("wakes sleepers whose deadline passed, in deadline order, showing each deadline", async () => {
    const clock = new FakeClock(0);
    const woke: Array<[string, number]> = [];
    const sleep = (name: string, ms: number) =>
      clock.sleep(ms).then(() => woke.push([name, clock.now().getTime()]));
    void sleep("c", 300);
    void sleep("a", 100);
    void sleep("b", 200);
    void sleep("late", 1_000);

    await clock.advance(250);
    expect(woke).toEqual([
      ["a", 100],
      ["b", 200],
    ]);
    expect(clock.now().getTime()).toBe(250);
    expect(clock.pendingSleeps).toBe(2);

    await clock.advance(50);
    expect(woke.map(([name]) => name)).toEqual(["a", "b", "c"]);
  });

  it("wakes equal deadlines in the order they slept", async () => {
    const clock = new FakeClock(0);
    const woke: string[] = [];
    for (const name of ["first", "second", "third"]) void clock.sleep(10).then(() => woke.push(name));
    await clock.advance(10);
    expect(woke).toEqual(["first", "second", "third"]);
  });

  it("lets a woken loop sleep again within the same advance", async () => {
    const clock = new FakeClock(0);
    const ticks: number[] = [];
    const controller = new AbortController();
    void (async () => {
      while (!controller.signal.aborted) {
        await clock.sleep(2_000, controller.signal);
        if (!controller.signal.aborted) ticks.push(clock.now().getTime());
      }
    })();
    await clock.advance(10_000);
    expect(ticks).toEqual([2_000, 4_000, 6_000, 8_000, 10_000]);
    controller.abort();
  });

  it("resolves a sleep at once when its signal aborts, and forgets it", async () => {
    const clock = new FakeClock(0);
    const controller = new AbortController();
    let done = false;
    const sleeping = clock.sleep(60_000, controller.signal).then(() => (done = true));
    expect(clock.pendingSleeps).toBe(1);
    controller.abort();
    await sleeping;
    expect(done).toBe(true);
    expect(clock.pendingSleeps).toBe(0);
    expect(clock.now().getTime()).toBe(0);

    // Already aborted: resolves without waiting.
    await clock.sleep(60_000, controller.signal);
    expect(clock.pendingSleeps).toBe(0);
  });

  it("set() jumps to a date and wakes every sleeper now due", async () => {
    const clock = new FakeClock("2026-01-01T00:00:00.000Z");
    const woke: string[] = [];
    void clock.sleep(60_000).then(() => woke.push("1m"));
    void clock.sleep(3_600_000).then(() => woke.push("1h"));
    await clock.set("2026-01-01T00:30:00.000Z");
    expect(woke).toEqual(["1m"]);
    expect(clock.now().toISOString()).toBe("2026-01-01T00:30:00.000Z");
    await clock.set("2026-01-02T00:00:00.000Z");
    expect(woke).toEqual(["1m", "1h"]);
  });

  it("refuses to advance backwards", async () => {
    await expect(new FakeClock().advance(-1)).rejects.toThrow(/backwards/);
  });
});
