import { describe, expect, it } from "vitest";
import { isId, newId } from "./ids.js";

describe("newId", () => {
  it("has the prefix, 26 base32 characters and sorts by time", () => {
    const a = newId("exp", new Date("2026-01-01T00:00:00Z"));
    const b = newId("exp", new Date("2026-01-01T00:00:00.001Z"));
    expect(a).toMatch(/^exp_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(a < b).toBe(true);
    expect(isId("exp", a)).toBe(true);
    expect(isId("hyp", a)).toBe(false);
    expect(isId("exp", "exp_../../etc")).toBe(false);
  });

  it("does not repeat", () => {
    const seen = new Set(Array.from({ length: 10_000 }, () => newId("evt")));
    expect(seen.size).toBe(10_000);
  });
});
