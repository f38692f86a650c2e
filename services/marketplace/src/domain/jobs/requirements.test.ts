import { describe, expect, it } from "vitest";
import { deadlineDate, matchingRequirements } from "./requirements.js";
import { storedRequirements } from "../../../test/support/jobs.js";

describe("matchingRequirements", () => {
  it("reads cents as USD and leaves unstated values out", () => {
    expect(
      matchingRequirements(storedRequirements({ budget_cents: 12_345, deadline: "2026-12-01" })),
    ).toEqual({
      experiment_type: "QPCR_EXPRESSION",
      bsl: "BSL-1",
      needs_human_samples_approval: false,
      needs_animal_samples_approval: false,
      needs_hazardous_chemicals_approval: false,
      equipment_required: [],
      priority: "standard",
      menu_tags: [],
      custom_protocol: false,
      budget_usd: 123.45,
      desired_turnaround_days: 14,
      deadline: "2026-12-01",
    });
    const bare = matchingRequirements(storedRequirements({ budget_cents: 0, desired_turnaround_days: 0 }));
    expect(bare).not.toHaveProperty("budget_usd");
    expect(bare).not.toHaveProperty("desired_turnaround_days");
    expect(bare).not.toHaveProperty("deadline");
  });

  it("cannot match an unknown type or an unsupported BSL", () => {
    expect(matchingRequirements(storedRequirements({ experiment_type: "UNKNOWN" }))).toBeUndefined();
    expect(matchingRequirements(storedRequirements({ bsl_level: "BSL-3" }))).toBeUndefined();
    expect(matchingRequirements(storedRequirements({ bsl_level: "" }))).toBeUndefined();
  });

  it("falls back to the standard priority", () => {
    expect(matchingRequirements(storedRequirements({ priority: "" }))?.priority).toBe("standard");
    expect(matchingRequirements(storedRequirements({ priority: "urgent" }))?.priority).toBe("urgent");
  });
});

describe("deadlineDate", () => {
  it("is the calendar date of a date or the UTC date of a date-time", () => {
    expect(deadlineDate("2026-12-01")).toBe("2026-12-01");
    expect(deadlineDate("2026-12-01T23:30:00-05:00")).toBe("2026-12-02");
    expect(deadlineDate("")).toBe("");
    expect(deadlineDate("soon")).toBe("");
  });
});
