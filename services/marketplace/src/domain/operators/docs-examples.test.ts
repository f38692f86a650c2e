/**
 * The README's operator example bodies (docs/examples) are ones the marketplace accepts, and the
 * verification record makes the example lab active: a reader who copies them gets a working lab.
 */
import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { validateOperatorProfile } from "./profile.js";
import { isVerificationComplete, validateVerificationRecord } from "./verification.js";

const example = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../../docs/examples/${name}`, import.meta.url), "utf8"));

describe("docs/examples", () => {
  it("profile.json is a valid operator profile", () => {
    const profile = validateOperatorProfile(example("profile.json"));
    expect(profile.ok ? [] : profile.errors).toEqual([]);
  });

  it("verification.json is a valid and complete verification record", () => {
    const record = validateVerificationRecord(example("verification.json"));
    expect(record.ok ? [] : record.errors).toEqual([]);
    expect(record.ok && isVerificationComplete(record.value)).toBe(true);
  });
});
