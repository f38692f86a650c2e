import { describe, expect, it } from "vitest";
import { planAccessChange } from "./account-access.js";
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
  const current = { role: "requester", tier: "standard" } as const;
  it("leave unspecified values alone and report whether anything changed", () => {
    expect(planAccessChange(current, {})).toEqual({ ...current, changed: false });
    expect(planAccessChange(current, { role: "requester" })).toEqual({ ...current, changed: false });
    expect(planAccessChange(current, { tier: "pro" })).toEqual({
      role: "requester",
      tier: "pro",
      changed: true,
    });
    expect(planAccessChange(current, { role: "operator", tier: "ai_agent" })).toEqual({
      role: "operator",
      tier: "ai_agent",
      changed: true,
    });
  });
});
