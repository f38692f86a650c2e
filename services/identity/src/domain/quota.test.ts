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
  grantFor,
  purgeBefore,
  quotaRules,
  validateDraw,
  windowBounds,
} from "./quota.js";

describe("quota policies", () => {
  it("are the spec's tier limits per account, and the documented per-address ones", () => {
    const limits = (rules: readonly { name: string; limit: number }[]) =>
      Object.fromEntries(rules.map((r) => [r.name, r.limit]));
    expect(limits(ACCOUNT_QUOTAS.standard)).toEqual({ minute: 100, day: 1_000 });
    expect(limits(ACCOUNT_QUOTAS.pro)).toEqual({ minute: 1_000, day: 10_000 });
    expect(limits(ACCOUNT_QUOTAS.ai_agent)).toEqual({ minute: 500, day: 5_000 });
    expect(limits(ANONYMOUS_QUOTA)).toEqual({ minute: 60, day: 1_000 });
    // Failed authentications: 20 per credential and address, and a per-address ceiling far
    // above one office's mistakes, so one user (or one guessed account) locks out no one else.
    expect(limits(CREDENTIAL_FAILURE_QUOTA)).toEqual({ minute: 20 });
    expect(limits(AUTH_FAILURE_QUOTA)).toEqual({ minute: 1_000 });
    expect(quotaRules("credential_failures", undefined)).toBe(CREDENTIAL_FAILURE_QUOTA);
    expect(quotaRules("auth_failures", undefined)).toBe(AUTH_FAILURE_QUOTA);
    expect(quotaRules("account", "pro")).toBe(ACCOUNT_QUOTAS.pro);
    expect(quotaRules("anonymous", "pro")).toBe(ANONYMOUS_QUOTA);
    expect(() => quotaRules("account", undefined)).toThrow(ValidationError);
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
  });
});

describe("grants", () => {
  it("give min(requested, remaining of every window), never below zero", () => {
    expect(
      grantFor(10, [
        { limit: 100, used: 95 },
        { limit: 1000, used: 0 },
      ]),
    ).toBe(5);
    expect(
      grantFor(10, [
        { limit: 100, used: 0 },
        { limit: 1000, used: 998 },
      ]),
    ).toBe(2);
    expect(grantFor(10, [{ limit: 100, used: 100 }])).toBe(0);
    expect(grantFor(10, [{ limit: 100, used: 120 }])).toBe(0);
    expect(grantFor(3, [{ limit: 100, used: 0 }])).toBe(3);
  });

  it("are the largest amount that keeps every window within its limit", () => {
    const window = fc.record({
      limit: fc.integer({ min: 1, max: 10_000 }),
      used: fc.integer({ min: 0, max: 10_000 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.array(window, { minLength: 1, maxLength: 3 }),
        (req, ws) => {
          const g = grantFor(req, ws);
          const fits = (n: number) => ws.every((w) => w.used + n <= w.limit || n === 0);
          return g >= 0 && g <= req && fits(g) && (g === req || !fits(g + 1));
        },
      ),
    );
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
