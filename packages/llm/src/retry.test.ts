import { describe, expect, it } from "vitest";
import { BASE_RETRY_DELAY_MS, abortableSleep, delayBeforeRetry, retryAfterMs } from "./retry.js";

describe("retryAfterMs", () => {
  it("reads delay-seconds, an HTTP date and retry-after-ms", () => {
    expect(retryAfterMs({ retryAfter: "3" })).toBe(3000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs({ retryAfter: "Thu, 01 Jan 2026 00:00:10 GMT" }, now)).toBe(10_000);
    expect(retryAfterMs({ retryAfter: "Wed, 31 Dec 2025 23:00:00 GMT" }, now)).toBe(0);
    expect(retryAfterMs({ retryAfter: "3", retryAfterMs: "120" })).toBe(120);
  });

  it("ignores absent or unreadable values", () => {
    expect(retryAfterMs({})).toBeUndefined();
    expect(retryAfterMs({ retryAfter: "soon" })).toBeUndefined();
    expect(retryAfterMs({ retryAfter: "-1" })).toBeUndefined();
  });
});

describe("delayBeforeRetry", () => {
  it("backs off exponentially up to the cap without a server delay", () => {
    expect(delayBeforeRetry(0, undefined, 5000)).toBe(BASE_RETRY_DELAY_MS);
    expect(delayBeforeRetry(1, undefined, 5000)).toBe(BASE_RETRY_DELAY_MS * 2);
    expect(delayBeforeRetry(10, undefined, 5000)).toBe(5000);
  });

  it("waits as the server asks, and gives up when it asks for more than the cap", () => {
    expect(delayBeforeRetry(0, 1000, 5000)).toBe(1000);
    expect(delayBeforeRetry(0, 5000, 5000)).toBe(5000);
    expect(delayBeforeRetry(0, 5001, 5000)).toBeUndefined();
  });
});

describe("abortableSleep", () => {
  it("rejects with the abort reason as soon as the signal aborts", async () => {
    const controller = new AbortController();
    const reason = new Error("cancelled by test");
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
  });

  it("rejects at once when already aborted", async () => {
    await expect(abortableSleep(60_000, AbortSignal.abort(new Error("early")))).rejects.toThrow("early");
  });

  it("resolves after a short wait", async () => {
    await expect(abortableSleep(1, new AbortController().signal)).resolves.toBeUndefined();
  });
});
