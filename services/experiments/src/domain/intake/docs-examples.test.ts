/**
 * The README's experiment requests (docs/examples) are ones the experiments service accepts as
 * they stand: valid, without a warning or a safety flag, so a reader who posts one gets an open
 * job. experiment.json is the one the README's marketplace loop posts (its example lab may claim
 * it, which the e2e marketplace scenarios check); experiment-cell-viability.json is a fuller
 * request on a human cell line.
 */
import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { validateExperimentRequest } from "./validate-request.js";

describe.each(["experiment.json", "experiment-cell-viability.json"])("docs/examples/%s", (name) => {
  it("is a valid request with nothing to warn about", () => {
    const body: unknown = JSON.parse(
      readFileSync(new URL(`../../../../../docs/examples/${name}`, import.meta.url), "utf8"),
    );
    const result = validateExperimentRequest(body, { mode: "submit", now: new Date() });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.safety_flags).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
