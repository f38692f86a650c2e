import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXPERIMENT_TYPES, type ExperimentTypeName } from "@petri/contracts/vocabulary";
import { arbitraryPlan } from "../../../test/support/plan-arbitraries.js";
import { checkAutoprotocol } from "./checker.js";
import { AutoprotocolTranslationError } from "./errors.js";
import { MAX_AUTOPROTOCOL_INSTRUCTIONS, translateToAutoprotocol } from "./to-autoprotocol.js";

describe("toAutoprotocol over generated plans", () => {
  it("every plan within PLAN_LIMITS gives a clean, bounded document or a typed refusal", () => {
    const translated = new Map<ExperimentTypeName, number>(EXPERIMENT_TYPES.map((type) => [type, 0]));
    let refused = 0;
    fc.assert(
      fc.property(arbitraryPlan(), (plan) => {
        let result;
        try {
          result = translateToAutoprotocol(plan);
        } catch (error) {
          // Refusals are expected for oversized or unexpressible plans; anything else is a bug.
          if (!(error instanceof AutoprotocolTranslationError)) throw error;
          expect(error.fieldErrors.length).toBeGreaterThan(0);
          refused += 1;
          return;
        }
        expect(result.document.instructions.length).toBeLessThanOrEqual(MAX_AUTOPROTOCOL_INSTRUCTIONS);
        expect(checkAutoprotocol(result.document)).toEqual([]);
        translated.set(plan.experiment_type, (translated.get(plan.experiment_type) ?? 0) + 1);
      }),
      { seed: 20261121, numRuns: 500 },
    );
    // The generated plans must mostly translate, for every type, or this test would prove little.
    const total = [...translated.values()].reduce((sum, n) => sum + n, 0);
    expect(total + refused).toBe(500);
    expect(total).toBeGreaterThanOrEqual(250);
    for (const [type, n] of translated) expect(n, type).toBeGreaterThanOrEqual(10);
  });
});
