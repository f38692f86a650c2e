import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { approvalTerms, deliveredOnTime } from "./approval.js";

describe("approval", () => {
  it("takes an optional rating 1-5 (0 means none) and optional feedback of at most 2,000 characters", () => {
    expect(approvalTerms({ rating: 0, feedback: "" })).toEqual({ rating: null, feedback: null });
    expect(approvalTerms({ rating: 5, feedback: "  great work " })).toEqual({
      rating: 5,
      feedback: "great work",
    });
    expect(approvalTerms({ rating: 1, feedback: "x".repeat(2000) }).rating).toBe(1);
    for (const rating of [-1, 6, 2.5, Number.NaN])
      expect(() => approvalTerms({ rating, feedback: "" })).toThrow(ValidationError);
    expect(() => approvalTerms({ rating: 3, feedback: "x".repeat(2001) })).toThrow(ValidationError);
  });

  it("counts results on time when submitted by the deadline (inclusive)", () => {
    const deadline = new Date("2026-12-01T23:59:59.999Z");
    expect(deliveredOnTime(new Date("2026-12-01T23:59:59.999Z"), deadline)).toBe(true);
    expect(deliveredOnTime(new Date("2026-12-02T00:00:00.000Z"), deadline)).toBe(false);
    expect(deliveredOnTime(null, deadline)).toBe(false);
    expect(deliveredOnTime(new Date("2027-01-01T00:00:00.000Z"), null)).toBe(true);
  });
});
