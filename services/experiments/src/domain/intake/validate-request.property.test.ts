import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { type SafetyFlag } from "../contracts.js";
import { FIXTURE_NOW, fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import { REQUEST_FIELDS } from "./schema/request.js";
import type { Json } from "../../../test/support/intake.js";
import { validateHypothesis } from "./validate-hypothesis.js";
import { validateExperimentRequest, type ValidationResult } from "./validate-request.js";

const ERROR_CODES = new Set([
  "missing_required",
  "invalid_value",
  "invalid_experiment_type",
  "safety_violation",
]);
const FLAGS = new Set<SafetyFlag>([
  "bsl_level_exceeded",
  "controlled_substance",
  "human_subjects",
  "safety_rejected",
]);
const ZOD_WORDING =
  /Invalid input|received undefined|expected (string|number|object|array)|Too (small|big)|Unrecognized key/;

function wellFormed(result: ValidationResult): void {
  expect(typeof result.valid).toBe("boolean");
  expect(result.valid).toBe(result.errors.length === 0);
  for (const error of result.errors) {
    expect(typeof error.path).toBe("string");
    expect(ERROR_CODES.has(error.code)).toBe(true);
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.message).not.toMatch(ZOD_WORDING);
  }
  for (const warning of result.warnings) {
    expect(typeof warning.path).toBe("string");
    expect(warning.code.length).toBeGreaterThan(0);
    expect(warning.message).not.toMatch(ZOD_WORDING);
  }
  expect(new Set(result.safety_flags).size).toBe(result.safety_flags.length);
  for (const flag of result.safety_flags) expect(FLAGS.has(flag)).toBe(true);
  expect([...new Set(result.safety.map((f) => f.flag))].sort()).toEqual([...result.safety_flags].sort());
  if (result.safety_flags.includes("safety_rejected")) {
    expect(result.errors.some((e) => e.code === "safety_violation")).toBe(true);
  }
  if (result.request) {
    expect(result.valid).toBe(true);
    expect(EXPERIMENT_TYPES).toContain(result.request.experiment_type);
    expect(["BSL-1", "BSL-2"]).toContain(result.request.compliance.bsl);
  }
  if (result.draft) expect(result.valid).toBe(true);
  expect(() => JSON.stringify(result)).not.toThrow();
}

const SEEDS = [...Object.values(validRequests), ...Object.values(fullRequests)] as Json[];

/** A valid request with one value replaced (anywhere) by arbitrary JSON. */
const mutated = fc
  .tuple(fc.constantFrom(...SEEDS), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.jsonValue())
  .map(([seed, steps, value]) => {
    const copy = structuredClone(seed);
    let node: any = copy;
    for (const [i, step] of steps.entries()) {
      const keys = Array.isArray(node) ? node.map((_: unknown, k: number) => k) : Object.keys(node);
      if (keys.length === 0) break;
      const key = keys[step % keys.length] as string | number;
      const last = i === steps.length - 1 || node[key] === null || typeof node[key] !== "object";
      if (last) {
        node[key] = value;
        break;
      }
      node = node[key];
    }
    return copy;
  });

/** Objects built from the request's own field names with arbitrary values. */
const requestShaped = fc.dictionary(
  fc.constantFrom(...REQUEST_FIELDS, "unknown_field"),
  fc.jsonValue({ maxDepth: 4 }),
);

describe("validateExperimentRequest on arbitrary input", () => {
  for (const mode of ["submit", "draft"] as const) {
    it(`never throws and returns well-formed results on arbitrary JSON (${mode})`, () => {
      fc.assert(
        fc.property(fc.jsonValue(), (input) => {
          wellFormed(validateExperimentRequest(input, { mode, now: FIXTURE_NOW }));
        }),
        { numRuns: 300 },
      );
    });

    it(`never throws on request-shaped objects (${mode})`, () => {
      fc.assert(
        fc.property(requestShaped, (input) => {
          wellFormed(validateExperimentRequest(input, { mode, now: FIXTURE_NOW }));
        }),
        { numRuns: 300 },
      );
    });

    it(`never throws on valid requests with one value replaced (${mode})`, () => {
      fc.assert(
        fc.property(mutated, (input) => {
          wellFormed(validateExperimentRequest(input, { mode, now: FIXTURE_NOW }));
        }),
        { numRuns: 500 },
      );
    });
  }

  it("stored forms validate again to themselves", () => {
    fc.assert(
      fc.property(mutated, (input) => {
        const first = validateExperimentRequest(input, { mode: "submit", now: FIXTURE_NOW });
        if (!first.request) return;
        const again = validateExperimentRequest(JSON.parse(JSON.stringify(first.request)), {
          mode: "submit",
          now: FIXTURE_NOW,
        });
        expect(again.errors).toEqual([]);
        expect(again.request).toEqual(first.request);
      }),
      { numRuns: 300 },
    );
  });

  it("survives deep nesting, odd keys and an invalid clock", () => {
    let deep: unknown = "sarin";
    for (let i = 0; i < 5000; i += 1) deep = [deep];
    const hostile = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": 1, "hypothesis": {"__proto__": 2}}',
    );
    for (const input of [
      deep,
      { ...(validRequests.MIC_MBC_ASSAY as Json), protocol: { template_parameters: { x: deep } } },
      hostile,
    ]) {
      wellFormed(validateExperimentRequest(input, { mode: "submit", now: FIXTURE_NOW }));
    }
    // A value nested too deeply to be scanned completely is refused, in drafts too.
    const hidden = { ...(specialRequests.standardTemplate as Json) };
    hidden.protocol = { ...hidden.protocol, template_parameters: { x: deep } };
    const refused = validateExperimentRequest(hidden, { mode: "draft", now: FIXTURE_NOW });
    expect(refused.valid).toBe(false);
    expect(
      refused.errors.some((e) => e.code === "invalid_value" && e.message.includes("nested too deeply")),
    ).toBe(true);
    expect(({} as Json).polluted).toBeUndefined();
    wellFormed(
      validateExperimentRequest(fullRequests.MIC_MBC_ASSAY, { mode: "submit", now: new Date(Number.NaN) }),
    );
  });

  it("validateHypothesis never throws", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.record({ statement: fc.string(), null_hypothesis: fc.string() })),
        (input) => {
          const result = validateHypothesis(input);
          expect(result.valid).toBe(result.errors.length === 0);
          expect(Array.isArray(result.suggestions)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
