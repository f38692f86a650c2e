import { describe, expect, it } from "vitest";
import { CONTEXT_MAX_LENGTH, QUERY_MAX_LENGTH, editedHypothesis, runInput } from "./run.js";

describe("an engine request", () => {
  it("trims, defaults the job type and accepts one of the eight types", () => {
    expect(
      runInput({ query: "  MIC of X  ", context: "", jobType: "", experimentType: "MIC_MBC_ASSAY" }),
    ).toEqual({
      query: "MIC of X",
      context: "",
      jobType: "hypothesis_generation",
      experimentType: "MIC_MBC_ASSAY",
    });
    expect(
      runInput({ query: "q", context: "c", jobType: "literature_review", experimentType: "" }),
    ).toMatchObject({
      jobType: "literature_review",
      experimentType: null,
    });
  });

  it("names every problem at once, with its bound", () => {
    expect(() =>
      runInput({
        query: "x".repeat(QUERY_MAX_LENGTH + 1),
        context: "c".repeat(CONTEXT_MAX_LENGTH + 1),
        jobType: "essay",
        experimentType: "PCR",
      }),
    ).toThrow(
      expect.objectContaining({
        fieldErrors: expect.arrayContaining([expect.objectContaining({ field: "query" })]),
      }),
    );
    try {
      runInput({ query: "", context: "", jobType: "essay", experimentType: "PCR" });
      expect.unreachable();
    } catch (error) {
      expect((error as { fieldErrors: { field: string }[] }).fieldErrors.map((e) => e.field)).toEqual([
        "query",
        "job_type",
        "experiment_type",
      ]);
    }
  });
});

describe("the edited draft", () => {
  it("needs both texts, different from each other, and a COMPLETED run", () => {
    expect(editedHypothesis("COMPLETED", { statement: " S ", nullHypothesis: "N" })).toEqual({
      statement: "S",
      null_hypothesis: "N",
    });
    expect(() => editedHypothesis("COMPLETED", { statement: "", nullHypothesis: "N" })).toThrow(/invalid/);
    expect(() => editedHypothesis("COMPLETED", { statement: "S", nullHypothesis: "S" })).toThrow(/invalid/);
    expect(() => editedHypothesis("RUNNING", { statement: "S", nullHypothesis: "N" })).toThrow(/RUNNING/);
  });
});
