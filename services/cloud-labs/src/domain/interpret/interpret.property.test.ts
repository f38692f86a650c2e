import { type Json, fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { PLAN_LIMITS } from "../plan.js";
import { PROVIDERS } from "../providers/catalog.js";
import { assayWarnings, capabilityProblems, estimateCost } from "../providers/capabilities.js";
import { interpretIntake, MAX_PROBLEMS, type InterpretResult } from "./interpret.js";

const SEEDS: Json[] = [
  ...Object.values(validRequests),
  ...Object.values(fullRequests),
  specialRequests.micCloudLab,
];

/** Replaces the value found by walking `steps` (indexes into keys or items) with `value`. */
function replaceSomewhere(seed: Json, steps: number[], value: Json): Json {
  const copy = structuredClone(seed);
  if (copy === null || typeof copy !== "object") return value;
  let node: Json[] | { [key: string]: Json } = copy;
  for (let i = 0; i < steps.length; i += 1) {
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, index) => index) : Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[(steps[i] as number) % keys.length] as string | number;
    const child: Json | undefined = (node as Record<string | number, Json>)[key];
    const last = i === steps.length - 1;
    if (last || child === null || typeof child !== "object") {
      (node as Record<string | number, Json>)[key] = value;
      break;
    }
    node = child;
  }
  return copy;
}

const mutated = fc
  .tuple(fc.constantFrom(...SEEDS), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.jsonValue())
  .map(([seed, steps, value]) => replaceSomewhere(seed, steps, value as Json));

/** An object with a real experiment type and arbitrary JSON in the sections interpret reads. */
const typed = fc.record(
  {
    experiment_type: fc.constantFrom(...EXPERIMENT_TYPES),
    mic_mbc: fc.jsonValue(),
    mic_mbc_assay: fc.jsonValue(),
    zone_of_inhibition: fc.jsonValue(),
    cell_viability: fc.jsonValue(),
    enzyme_inhibition: fc.jsonValue(),
    qpcr: fc.jsonValue(),
    sanger: fc.jsonValue(),
    microbial_growth: fc.jsonValue(),
    custom_protocol: fc.jsonValue(),
    protocol: fc.jsonValue(),
    replicates: fc.jsonValue(),
    compliance: fc.jsonValue(),
    title: fc.jsonValue(),
  },
  { requiredKeys: ["experiment_type"] },
);

function wellFormed(result: InterpretResult): void {
  if ("problems" in result) {
    expect(result.problems.length).toBeGreaterThan(0);
    expect(result.problems.length).toBeLessThanOrEqual(MAX_PROBLEMS);
    for (const problem of result.problems) {
      expect(problem.field.length).toBeGreaterThan(0);
      expect(problem.message.length).toBeGreaterThan(0);
      expect(problem.message).not.toMatch(/Invalid input|expected (string|number|object|array), received/);
    }
    return;
  }
  const { plan, interpretation } = result;
  expect(EXPERIMENT_TYPES).toContain(plan.experiment_type);
  expect(Number.isInteger(plan.sample_count) && plan.sample_count > 0).toBe(true);
  expect(plan.replicates.technical).toBeLessThanOrEqual(PLAN_LIMITS.replicates_technical);
  expect(plan.replicates.biological).toBeLessThanOrEqual(PLAN_LIMITS.replicates_biological);
  expect(plan.title.length).toBeLessThanOrEqual(PLAN_LIMITS.text);
  expect(interpretation.confidence).toBeGreaterThanOrEqual(0);
  expect(interpretation.confidence).toBeLessThanOrEqual(1);
  for (const compound of interpretation.parameters.compounds) {
    expect(compound.concentrations.length).toBeLessThanOrEqual(PLAN_LIMITS.concentrations);
    for (const c of compound.concentrations) expect(Number.isFinite(c) && c > 0).toBe(true);
  }
  // The rest of the pipeline accepts whatever interpret produces.
  for (const provider of PROVIDERS) {
    capabilityProblems(plan, provider);
    expect(Number.isFinite(estimateCost(plan, provider).estimated_cost_usd)).toBe(true);
  }
  assayWarnings(plan);
  expect(() => JSON.stringify(result)).not.toThrow();
}

describe("interpretIntake (property)", () => {
  it("never throws on any JSON value, and answers the same twice", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), mutated, typed),
        fc.option(fc.constantFrom(...PROVIDERS)),
        (intake, provider) => {
          const first = interpretIntake(intake, provider ?? undefined);
          wellFormed(first);
          expect(interpretIntake(structuredClone(intake), provider ?? undefined)).toEqual(first);
        },
      ),
      { numRuns: 400 },
    );
  });
});
