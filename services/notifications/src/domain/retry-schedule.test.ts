import { describe, expect, it } from "vitest";
import { ATTEMPTS_PER_CYCLE, nextAttemptAfterFailure } from "./retry-schedule.js";

const MINUTE = 60_000;

describe("nextAttemptAfterFailure", () => {
  it("waits 1, 5, 30 minutes and 2 hours after the 1st to 4th failure, measured from the failure", () => {
    const failedAt = new Date("2026-03-02T10:00:00.000Z");
    expect(
      [1, 2, 3, 4].map((n) => nextAttemptAfterFailure(n, failedAt)!.getTime() - failedAt.getTime()),
    ).toEqual([MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE]);
  });

  it("gives attempts at 0, 1, 6, 36 and 156 minutes when each failure is instant", () => {
    let at = 0;
    const times = [at];
    for (let failures = 1; failures < ATTEMPTS_PER_CYCLE; failures += 1) {
      at = nextAttemptAfterFailure(failures, new Date(at))!.getTime();
      times.push(at / MINUTE);
    }
    expect(times).toEqual([0, 1, 6, 36, 156]);
  });

  it("has nothing after the fifth failure", () => {
    expect(ATTEMPTS_PER_CYCLE).toBe(5);
    expect(nextAttemptAfterFailure(5, new Date())).toBeUndefined();
    expect(() => nextAttemptAfterFailure(0, new Date())).toThrow(RangeError);
  });
});
