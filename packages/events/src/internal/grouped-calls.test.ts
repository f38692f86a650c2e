import { describe, expect, it } from "vitest";
import { columnsOf, GroupedCalls } from "./grouped-calls.js";

/** A write whose statements the test finishes by hand. */
function manualWrite() {
  const groups: number[][] = [];
  const finishers: Array<(err?: Error) => void> = [];
  const write = (items: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      groups.push(items);
      finishers.push((err) => (err ? reject(err) : resolve(items.map((item) => item * 10))));
    });
  return { groups, finishers, write };
}

describe("GroupedCalls", () => {
  it("sends a lone write at once and groups the writes that arrive while it runs", async () => {
    const { groups, finishers, write } = manualWrite();
    const grouped = new GroupedCalls(write);
    const first = grouped.call(1);
    expect(groups).toEqual([[1]]);
    const rest = [grouped.call(2), grouped.call(3), grouped.call(4)];
    expect(groups).toHaveLength(1);
    finishers[0]!();
    await first;
    await Promise.resolve();
    expect(groups).toEqual([[1], [2, 3, 4]]);
    finishers[1]!();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    const later = grouped.call(5);
    expect(groups).toEqual([[1], [2, 3, 4], [5]]);
    finishers[2]!();
    await later;
  });

  it("fails every write of a failed group, and only those", async () => {
    const { groups, finishers, write } = manualWrite();
    const grouped = new GroupedCalls(write);
    const first = grouped.call(1);
    const second = grouped.call(2);
    const third = grouped.call(3);
    finishers[0]!(new Error("connection lost"));
    await expect(first).rejects.toThrow("connection lost");
    await Promise.resolve();
    expect(groups).toEqual([[1], [2, 3]]);
    finishers[1]!();
    await expect(Promise.all([second, third])).resolves.toEqual([20, 30]);
  });

  it("splits a backlog into groups of at most maxGroup", async () => {
    const { groups, finishers, write } = manualWrite();
    const grouped = new GroupedCalls(write, 2);
    const all = [1, 2, 3, 4, 5].map((n) => grouped.call(n));
    for (let i = 0; i < 3; i += 1) {
      finishers[i]!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(all);
    expect(groups).toEqual([[1], [2, 3], [4, 5]]);
  });
});

describe("columnsOf", () => {
  it("turns a group's items into one array per asked field, position by position", () => {
    const items = [
      { stream: "a", seq: 1, unused: true },
      { stream: "b", seq: 2, unused: false },
    ];
    expect(columnsOf(items, ["stream", "seq"])).toEqual({ stream: ["a", "b"], seq: [1, 2] });
    expect(columnsOf([], ["stream"])).toEqual({ stream: [] });
  });
});
