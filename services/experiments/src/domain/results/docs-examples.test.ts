/**
 * The README's results example (docs/examples/results.json) is a submission the experiments
 * service accepts, files included.
 */
import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { parseSubmission } from "./parse-submission.js";

describe("docs/examples/results.json", () => {
  it("is a valid results submission with its two files", () => {
    const body: unknown = JSON.parse(
      readFileSync(new URL("../../../../../docs/examples/results.json", import.meta.url), "utf8"),
    );
    const parsed = parseSubmission(body);
    expect(parsed.ok ? [] : parsed).toEqual([]);
    expect(parsed.ok && parsed.submission.files.map((file) => file.kind)).toEqual(["raw_data", "photo"]);
  });
});
