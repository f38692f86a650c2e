/**
 * Random plan shapes (replicates, plate format, detection method, list lengths) around every
 * sample plan: toSll either returns a protocol that passes the check, or refuses with
 * SllNotExpressibleError naming a field; never anything else.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DetectionMethod, LabPlan } from "../plan.js";
import { checkSllProtocol } from "./check.js";
import { SllNotExpressibleError } from "./errors.js";
import { planVariants, variant } from "../../../test/support/sll/plan-variants.js";
import { SLL_LIMITS, toSll } from "./to-sll.js";
import { arbitraryPlan } from "../../../test/support/plan-arbitraries.js";

const DETECTION: DetectionMethod[] = [
  "absorbance",
  "fluorescence",
  "luminescence",
  "qpcr_fluorescence",
  "sanger_sequencing",
  "imaging",
];

/** Shortens every list of the plan to `keep` entries (at least one). */
function shorten(plan: LabPlan, keep: number): LabPlan {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.slice(0, Math.max(1, keep)).map(walk);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    }
    return value;
  };
  return walk(plan) as LabPlan;
}

describe("toSll over random plan shapes", () => {
  const bases = planVariants().map((v) => v.plan);

  it("returns a checked protocol or a SllNotExpressibleError", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...bases),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom("96-well", "384-well"),
        fc.constantFrom(...DETECTION),
        fc.integer({ min: 1, max: 12 }),
        (base, technical, biological, format, detection, keep) => {
          const plan = variant<LabPlan>(shorten(base, keep), (p) => {
            p.replicates = { technical, biological };
            p.plate_format = format as LabPlan["plate_format"];
            p.detection_method = detection;
          });
          try {
            expect(checkSllProtocol(toSll(plan))).toEqual([]);
          } catch (error) {
            expect(error).toBeInstanceOf(SllNotExpressibleError);
            expect((error as SllNotExpressibleError).field).toMatch(/^[a-z_]+(\[\d+\])?(\.[a-z_]+)?$/);
          }
        },
      ),
      { numRuns: 200, seed: 99 },
    );
  });

  it("refuses empty lists and zero replicates with the field at fault", () => {
    const cases: [LabPlan, string][] = [
      [variant(bases[0]!, (p) => ((p as { organisms: unknown[] }).organisms = [])), "organisms"],
      [variant(bases[0]!, (p) => (p.replicates.technical = 0)), "replicates.technical"],
    ];
    for (const [plan, field] of cases) expect(() => toSll(plan)).toThrow(expect.objectContaining({ field }));
  });
});

describe("toSll over arbitrary plans within PLAN_LIMITS (test/support/plan-arbitraries)", () => {
  it("returns a checked protocol within SLL_LIMITS, or a SllNotExpressibleError", () => {
    fc.assert(
      fc.property(arbitraryPlan(), (plan) => {
        let protocol;
        try {
          protocol = toSll(plan);
        } catch (error) {
          expect(error).toBeInstanceOf(SllNotExpressibleError);
          return;
        }
        expect(checkSllProtocol(protocol)).toEqual([]);
        expect(protocol.steps.length).toBeLessThanOrEqual(SLL_LIMITS.steps);
        expect(protocol.text.length).toBeLessThanOrEqual(SLL_LIMITS.text_chars);
        expect(toSll(structuredClone(plan)).text).toBe(protocol.text);
      }),
      { numRuns: 300, seed: 20261121 },
    );
  });
});
