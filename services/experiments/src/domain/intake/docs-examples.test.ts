/**
 * The README's experiment request (docs/examples/experiment.json) is one the experiments service
 * accepts as it stands: valid, without a warning or a safety flag, so a reader who posts it gets
 * an open job.
 */
import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { validateExperimentRequest } from "./validate-request.js";

describe("docs/examples/experiment.json", () => {
  it("is a valid request with nothing to warn about", () => {
    const body: unknown = JSON.parse(
      readFileSync(new URL("../../../../../docs/examples/experiment.json", import.meta.url), "utf8"),
    );
    const result = validateExperimentRequest(body, { mode: "submit", now: new Date() });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.safety_flags).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
