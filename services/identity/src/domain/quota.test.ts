import { ValidationError } from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ACCOUNT_QUOTAS,
  ANONYMOUS_QUOTA,
  AUTH_FAILURE_QUOTA,
  CREDENTIAL_FAILURE_QUOTA,
  type WindowState,
  bindingWindow,
  purgeBefore,
  purgeUsageBefore,
  quotaSource,
  usageWindows,
  validateDraw,
  windowBounds,
} from "./quota.js";

describe("quota policies", () => {
  it("are the spec's tier limits per account, and the documented per-address ones", () => {
    expect(ACCOUNT_QUOTAS.standard).toEqual({ minute: 100, day: 1_000 });
    expect(ACCOUNT_QUOTAS.pro).toEqual({ minute: 1_000, day: 10_000 });
    expect(ACCOUNT_QUOTAS.ai_agent).toEqual({ minute: 500, day: 5_000 });
    expect(ANONYMOUS_QUOTA).toEqual({ minute: 60, day: 1_000 });
    // Failed authentications: 20 per credential and address, and a per-address ceiling far
    // above one office's mistakes, so one user (or one guessed account) locks out no one else.
    expect(CREDENTIAL_FAILURE_QUOTA).toEqual({ minute: 20, day: null });
    expect(AUTH_FAILURE_QUOTA).toEqual({ minute: 1_000, day: null });
    const fixed = (limits: unknown) => ({ limits, fromAccount: false });
    expect(quotaSource("credential_failures", undefined)).toEqual(fixed(CREDENTIAL_FAILURE_QUOTA));
    expect(quotaSource("auth_failures", undefined)).toEqual(fixed(AUTH_FAILURE_QUOTA));
    expect(quotaSource("account", "pro")).toEqual(fixed(ACCOUNT_QUOTAS.pro));
    expect(quotaSource("anonymous", "pro")).toEqual(fixed(ANONYMOUS_QUOTA));
    expect(() => quotaSource("account", undefined)).toThrow(ValidationError);
  });

  it("read a custom-tier account's own limits, with the lowest published tier's as fallback", () => {
    expect(quotaSource("account", "custom")).toEqual({ limits: ACCOUNT_QUOTAS.standard, fromAccount: true });
  });
});

describe("window arithmetic (fixed windows aligned to the clock)", () => {
  it("floors to the minute and to the UTC day as the clock moves", async () => {
    const clock = new FakeClock("2026-03-01T23:59:59.999Z");
    expect(windowBounds("minute", clock.now())).toEqual({
      start: new Date("2026-03-01T23:59:00.000Z"),
      end: new Date("2026-03-02T00:00:00.000Z"),
    });
    expect(windowBounds("day", clock.now())).toEqual({
      start: new Date("2026-03-01T00:00:00.000Z"),
      end: new Date("2026-03-02T00:00:00.000Z"),
    });
    await clock.advance(1);
    expect(windowBounds("minute", clock.now()).start).toEqual(new Date("2026-03-02T00:00:00.000Z"));
    expect(windowBounds("day", clock.now()).start).toEqual(new Date("2026-03-02T00:00:00.000Z"));
    await clock.advance(59_999);
    expect(windowBounds("minute", clock.now()).start).toEqual(new Date("2026-03-02T00:00:00.000Z"));
    await clock.advance(1);
    expect(windowBounds("minute", clock.now()).start).toEqual(new Date("2026-03-02T00:01:00.000Z"));
  });

  it("contains now, in a window of exactly its size", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.constantFrom("minute", "day"),
        (ms, name) => {
          const { start, end } = windowBounds(name as "minute" | "day", new Date(ms));
          const size = name === "minute" ? 60_000 : 86_400_000;
          return start.getTime() <= ms && ms < end.getTime() && end.getTime() - start.getTime() === size;
        },
      ),
    );
  });

  it("purges rows whose window ended more than two days ago", () => {
    expect(purgeBefore(new Date("2026-03-03T12:00:00Z"))).toEqual(new Date("2026-03-01T12:00:00Z"));
    // A subject's counters end with its day window.
    expect(purgeUsageBefore(new Date("2026-03-03T12:00:00Z"))).toEqual(new Date("2026-02-28T12:00:00Z"));
  });
});

describe("the windows a draw reports", () => {
  it("are the minute's, and the day's when the policy limits the day, with their resets", () => {
    const usage = {
      minuteStart: new Date("2026-03-02T10:00:00Z"),
      minuteLimit: 100,
      minuteUsed: 30,
      dayStart: new Date("2026-03-02T00:00:00Z"),
      dayLimit: 1_000,
      dayUsed: 1_200,
    };
    expect(usageWindows(usage)).toEqual([
      { name: "minute", limit: 100, remaining: 70, resetsAt: new Date("2026-03-02T10:01:00Z") },
      // Over the limit (it was lowered): nothing remains, never a negative count.
      { name: "day", limit: 1_000, remaining: 0, resetsAt: new Date("2026-03-03T00:00:00Z") },
    ]);
    expect(usageWindows({ ...usage, dayLimit: null }).map((w) => w.name)).toEqual(["minute"]);
  });
});

describe("the binding window", () => {
  const minute: WindowState = { name: "minute", limit: 100, remaining: 40, resetsAt: new Date(60_000) };
  const day: WindowState = { name: "day", limit: 1000, remaining: 40, resetsAt: new Date(86_400_000) };

  it("is the one with the fewest remaining", () => {
    expect(bindingWindow([minute, { ...day, remaining: 900 }]).name).toBe("minute");
    expect(bindingWindow([minute, { ...day, remaining: 10 }]).name).toBe("day");
  });

  it("on a tie is the one resetting later", () => {
    expect(bindingWindow([minute, day]).name).toBe("day");
    expect(bindingWindow([day, minute]).name).toBe("day");
    expect(
      bindingWindow([
        { ...minute, remaining: 0 },
        { ...day, remaining: 0 },
      ]).name,
    ).toBe("day");
  });
});

describe("draw validation", () => {
  const ok = { policy: "account" as const, subject: "usr_1", tier: "standard" as const, requested: 1 };
  it("accepts 1..100 and needs a tier for the account policy", () => {
    expect(validateDraw(ok)).toEqual([]);
    expect(validateDraw({ ...ok, requested: 100 })).toEqual([]);
    const fields = (input: Parameters<typeof validateDraw>[0]) => validateDraw(input).map((p) => p.field);
    expect(fields({ ...ok, requested: 0 })).toEqual(["requested"]);
    expect(fields({ ...ok, requested: 101 })).toEqual(["requested"]);
    expect(fields({ ...ok, requested: 1.5 })).toEqual(["requested"]);
    expect(fields({ ...ok, tier: undefined })).toEqual(["tier"]);
    expect(fields({ ...ok, policy: "anonymous", tier: undefined })).toEqual([]);
    expect(fields({ ...ok, policy: undefined })).toEqual(["policy"]);
    expect(fields({ ...ok, subject: " " })).toEqual(["subject"]);
    expect(fields({ ...ok, subject: "x".repeat(201) })).toEqual(["subject"]);
  });
});
