import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { applyPatch, mergePatch, parsePatch } from "./patch.js";

describe("PATCH bodies", () => {
  it("accepts only the patchable fields and names every other one", () => {
    expect(parsePatch({ constraints: { budget_max_usd: 10 }, turnaround_priority: "urgent" })).toBeDefined();
    let caught: unknown;
    try {
      parsePatch({ title: "x", status: "open", constraints: {} });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).fieldErrors.map((e) => e.field)).toEqual(["title", "status"]);
    expect(() => parsePatch([1])).toThrow(ValidationError);
    expect(() => parsePatch("x")).toThrow(ValidationError);
  });

  it("merges as JSON Merge Patch (RFC 7396)", () => {
    const target = { a: { b: 1, c: 2 }, d: [1, 2], e: "x" };
    expect(mergePatch(target, { a: { b: null, z: 3 }, d: [3], e: null })).toEqual({
      a: { c: 2, z: 3 },
      d: [3],
    });
    expect(target).toEqual({ a: { b: 1, c: 2 }, d: [1, 2], e: "x" });
  });

  it("replaces a setting sent under another spelling instead of conflicting with it", () => {
    const stored = {
      title: "T",
      turnaround_budget: {
        budget_max_usd: 300,
        priority: "standard",
        budget_flexibility: "strict",
        desired_turnaround_days: 10,
      },
    };
    expect(applyPatch(stored, { constraints: { budget_max_usd: 500 }, turnaround_days: 7 })).toEqual({
      title: "T",
      turnaround_budget: { priority: "standard", budget_flexibility: "strict" },
      constraints: { budget_max_usd: 500 },
      turnaround_days: 7,
    });
    expect(applyPatch(stored, { turnaround_priority: "expedited" })).toEqual({
      title: "T",
      turnaround_budget: { budget_max_usd: 300, budget_flexibility: "strict", desired_turnaround_days: 10 },
      turnaround_priority: "expedited",
    });
    expect(applyPatch(stored, { turnaround_budget: { max_days: 5 } })).toEqual({
      title: "T",
      turnaround_budget: {
        budget_max_usd: 300,
        priority: "standard",
        budget_flexibility: "strict",
        max_days: 5,
      },
    });
    expect(
      applyPatch(stored, { communication_preferences: { webhook_url: "https://x.test/h" } }),
    ).toMatchObject({
      turnaround_budget: stored.turnaround_budget,
      communication_preferences: { webhook_url: "https://x.test/h" },
    });
  });
});
