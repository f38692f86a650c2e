import { describe, expect, it } from "vitest";
import { planAccessChange, validateAccessChange } from "./account-access.js";
import { shouldRecordUse, validateApiKeyName } from "./api-keys.js";
import { isPublished, retirementTime } from "./signing-keys.js";

describe("API key rules", () => {
  it("need a name of at most 100 characters", () => {
    expect(validateApiKeyName("ci")).toEqual([]);
    expect(validateApiKeyName("  ")[0]?.code).toBe("missing_required");
    expect(validateApiKeyName("x".repeat(101))[0]?.code).toBe("invalid_value");
    expect(validateApiKeyName("x".repeat(100))).toEqual([]);
  });

  it("record last use at most once a minute", () => {
    const now = new Date("2026-01-01T00:10:00Z");
    expect(shouldRecordUse(null, now)).toBe(true);
    expect(shouldRecordUse(new Date("2026-01-01T00:09:00.001Z"), now)).toBe(false);
    expect(shouldRecordUse(new Date("2026-01-01T00:09:00Z"), now)).toBe(true);
  });
});

describe("signing key lifecycle", () => {
  it("retires a key after the token lifetime plus 5 minutes of skew", () => {
    expect(retirementTime(new Date("2026-01-01T00:00:00Z"), 3600)).toEqual(new Date("2026-01-01T01:05:00Z"));
  });

  it("publishes the active key and retiring keys until retires_at", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    expect(isPublished({ state: "active", retires_at: null }, now)).toBe(true);
    expect(isPublished({ state: "retiring", retires_at: new Date(now.getTime() + 1) }, now)).toBe(true);
    expect(isPublished({ state: "retiring", retires_at: now }, now)).toBe(false);
  });
});

describe("account access changes", () => {
  const current = { role: "requester", tier: "standard", rateLimits: null } as const;
  const custom = { perMinute: 5, perDay: 50 };
  it("leave unspecified values alone and report whether anything changed", () => {
    const unchanged = { ...current, changed: false, credentialsChanged: false };
    expect(planAccessChange(current, {})).toEqual(unchanged);
    expect(planAccessChange(current, { role: "requester" })).toEqual(unchanged);
    expect(planAccessChange(current, { tier: "pro" })).toEqual({
      role: "requester",
      tier: "pro",
      rateLimits: null,
      changed: true,
      credentialsChanged: true,
    });
    expect(planAccessChange(current, { role: "operator", tier: "ai_agent" })).toEqual({
      role: "operator",
      tier: "ai_agent",
      rateLimits: null,
      changed: true,
      credentialsChanged: true,
    });
  });

  it("set a custom tier's limits with it, keep them, and clear them with another tier", () => {
    const toCustom = planAccessChange(current, { tier: "custom", rateLimits: custom });
    expect(toCustom).toMatchObject({ tier: "custom", rateLimits: custom, credentialsChanged: true });
    const asCustom = { role: "requester", tier: "custom", rateLimits: custom } as const;
    expect(planAccessChange(asCustom, { role: "operator" })).toMatchObject({
      rateLimits: custom,
      credentialsChanged: true,
    });
    expect(planAccessChange(asCustom, { tier: "pro" })).toMatchObject({ rateLimits: null });
    // New limits within the custom tier: a change, but the credentials stand.
    expect(
      planAccessChange(asCustom, { tier: "custom", rateLimits: { perMinute: 6, perDay: 50 } }),
    ).toMatchObject({ changed: true, credentialsChanged: false });
    expect(planAccessChange(asCustom, { tier: "custom", rateLimits: custom })).toMatchObject({
      changed: false,
    });
  });

  it("need limits with the custom tier only, within the published bounds", () => {
    const fields = (requested: Parameters<typeof validateAccessChange>[0]) =>
      validateAccessChange(requested).map((p) => `${p.field}:${p.code}`);
    expect(fields({ tier: "custom", rateLimits: custom })).toEqual([]);
    expect(fields({ tier: "custom", rateLimits: { perMinute: 1, perDay: 1 } })).toEqual([]);
    expect(fields({ tier: "custom", rateLimits: { perMinute: 1_000_000, perDay: 1_000_000_000 } })).toEqual(
      [],
    );
    expect(fields({ tier: "custom" })).toEqual(["rate_limits:missing_required"]);
    expect(fields({ tier: "pro", rateLimits: custom })).toEqual(["rate_limits:invalid_value"]);
    expect(fields({ rateLimits: custom })).toEqual(["rate_limits:invalid_value"]);
    expect(fields({ tier: "custom", rateLimits: { perMinute: 0, perDay: 10 } })).toEqual([
      "rate_limits.per_minute:invalid_value",
    ]);
    expect(fields({ tier: "custom", rateLimits: { perMinute: 1_000_001, perDay: 2_000_000 } })).toEqual([
      "rate_limits.per_minute:invalid_value",
    ]);
    expect(fields({ tier: "custom", rateLimits: { perMinute: 1.5, perDay: 10 } })).toEqual([
      "rate_limits.per_minute:invalid_value",
    ]);
    expect(fields({ tier: "custom", rateLimits: { perMinute: 10, perDay: 9 } })).toEqual([
      "rate_limits.per_day:invalid_value",
    ]);
    expect(fields({ tier: "custom", rateLimits: { perMinute: 10, perDay: 1_000_000_001 } })).toEqual([
      "rate_limits.per_day:invalid_value",
    ]);
    expect(fields({ tier: "standard" })).toEqual([]);
  });
});
