import { describe, expect, it } from "vitest";
import { SUBMISSION_STATUSES, advances, isFinal } from "./submission.js";

describe("submission statuses", () => {
  it("move forward only, and never out of completed, failed or cancelled", () => {
    expect(advances("pending", "submitted")).toBe(true);
    expect(advances("submitted", "running")).toBe(true);
    expect(advances("running", "completed")).toBe(true);
    expect(advances("queued", "failed")).toBe(true);
    expect(advances("running", "queued")).toBe(false);
    expect(advances("running", "running")).toBe(false);
    for (const final of ["completed", "failed", "cancelled"] as const) {
      expect(isFinal(final)).toBe(true);
      for (const next of SUBMISSION_STATUSES) expect(advances(final, next)).toBe(false);
    }
  });
});
