import { describe, expect, it } from "vitest";
import { SafetyPoll, safetyPollFromEnv } from "./safety-poll.js";

describe("SafetyPoll", () => {
  it("starts short, doubles while idle up to the maximum, and starts over after activity", () => {
    const poll = new SafetyPoll({ minMs: 1_000, maxMs: 10_000 });
    expect([poll.next(), poll.next(), poll.next(), poll.next(), poll.next(), poll.next()]).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
    poll.activity();
    expect(poll.next()).toBe(1_000);
  });

  it("never starts above its maximum", () => {
    const poll = new SafetyPoll({ maxMs: 20 });
    expect([poll.minMs, poll.next(), poll.next()]).toEqual([20, 20, 20]);
  });

  it("reads PETRI_SAFETY_POLL_MS, refusing nonsense", () => {
    expect(safetyPollFromEnv(undefined, 10_000)).toBe(10_000);
    expect(safetyPollFromEnv("", 10_000)).toBe(10_000);
    expect(safetyPollFromEnv("30000", 10_000)).toBe(30_000);
    expect(() => safetyPollFromEnv("5", 10_000)).toThrow(/PETRI_SAFETY_POLL_MS/);
    expect(() => safetyPollFromEnv("1.5s", 10_000)).toThrow(/PETRI_SAFETY_POLL_MS/);
  });
});
