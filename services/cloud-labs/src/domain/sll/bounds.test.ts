import { describe, expect, it } from "vitest";
import { largestPlans } from "../../../test/support/sll/hostile.js";
import { SLL_LIMITS, toSll } from "./to-sll.js";

describe("bounded output", () => {
  // The largest plans within PLAN_LIMITS, every text field at the length limit and made of
  // characters that escape to six: output grows with every count, so these are the ceiling.
  for (const plan of largestPlans()) {
    it(`${plan.experiment_type} at every limit stays under SLL_LIMITS`, () => {
      const protocol = toSll(plan);
      expect(protocol.steps.length).toBeLessThanOrEqual(SLL_LIMITS.steps);
      expect(protocol.text.length).toBeLessThanOrEqual(SLL_LIMITS.text_chars);
    });
  }
});
