import { ConflictError, InvalidStateError, ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { EXPERIMENT_STATUSES } from "@petri/contracts/vocabulary";
import { MAX_ISSUES_PER_EXPERIMENT, assertIssueAccepted, issueReport } from "./issue.js";

function problems(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.fieldErrors.map((e) => [e.field, e.code]);
    throw error;
  }
  throw new Error("expected a ValidationError");
}

describe("operator issues", () => {
  it("takes a description of 10 to 5,000 characters (trimmed) and a known severity (any case)", () => {
    expect(issueReport({ description: "  reagent lot expired  ", severity: "HIGH" })).toEqual({
      description: "reagent lot expired",
      severity: "high",
    });
    expect(issueReport({ description: "x".repeat(5000), severity: "low" }).description).toHaveLength(5000);
    expect(problems(() => issueReport({ description: "too short", severity: "low" }))).toEqual([
      ["description", "invalid_value"],
    ]);
    expect(problems(() => issueReport({ description: "x".repeat(5001), severity: "low" }))).toEqual([
      ["description", "invalid_value"],
    ]);
    expect(problems(() => issueReport({ description: "  ", severity: "" }))).toEqual([
      ["description", "missing_required"],
      ["severity", "missing_required"],
    ]);
    expect(problems(() => issueReport({ description: "a valid description", severity: "urgent" }))).toEqual([
      ["severity", "invalid_value"],
    ]);
  });

  it("is accepted while claimed or in progress, below the limit", () => {
    for (const status of EXPERIMENT_STATUSES) {
      if (status === "claimed" || status === "in_progress")
        expect(() => assertIssueAccepted(status, 0)).not.toThrow();
      else expect(() => assertIssueAccepted(status, 0)).toThrow(InvalidStateError);
    }
    expect(() => assertIssueAccepted("in_progress", MAX_ISSUES_PER_EXPERIMENT - 1)).not.toThrow();
    try {
      assertIssueAccepted("in_progress", MAX_ISSUES_PER_EXPERIMENT);
      throw new Error("expected a refusal");
    } catch (error) {
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as ConflictError).code).toBe("issue_limit_reached");
    }
  });
});
