import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { SEARCH_MAX_LENGTH, containsPattern, hypothesisFilter } from "./listing.js";

const none = { status: "", experimentType: "", search: "" };

describe("hypothesisFilter", () => {
  it("hides ARCHIVED unless it is asked for", () => {
    expect(hypothesisFilter(none)).toEqual({
      statuses: ["DRAFT", "USED"],
      experimentType: null,
      searchPattern: null,
    });
    expect(hypothesisFilter({ ...none, status: "ARCHIVED" }).statuses).toEqual(["ARCHIVED"]);
    expect(hypothesisFilter({ ...none, status: "USED" }).statuses).toEqual(["USED"]);
  });

  it("filters by experiment type and searches a trimmed substring", () => {
    expect(hypothesisFilter({ ...none, experimentType: "MIC_MBC_ASSAY", search: " gene1 " })).toEqual({
      statuses: ["DRAFT", "USED"],
      experimentType: "MIC_MBC_ASSAY",
      searchPattern: "%gene1%",
    });
  });

  it("names unknown values and an overlong search", () => {
    let error: unknown;
    try {
      hypothesisFilter({ status: "draft", experimentType: "PCR", search: "x".repeat(SEARCH_MAX_LENGTH + 1) });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors.map((e) => e.field)).toEqual([
      "status",
      "experiment_type",
      "search",
    ]);
  });
});

describe("containsPattern", () => {
  it("escapes the LIKE wildcards and the escape character", () => {
    expect(containsPattern("50%_a\\b")).toBe("%50\\%\\_a\\\\b%");
  });
});
