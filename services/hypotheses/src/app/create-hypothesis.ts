import type { Principal } from "@petri/service-kit";
import { type Hypothesis, type NewHypothesisInput, newHypothesisContent } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";
import { saveNewHypothesis } from "./save-hypothesis.js";

/** Saves a hypothesis (manual or engine-sourced) in the caller's library: DRAFT, no experiments yet. */
export function makeCreateHypothesis(deps: ChangingDeps) {
  return async function createHypothesis(
    principal: Principal,
    input: NewHypothesisInput,
  ): Promise<Hypothesis> {
    const content = newHypothesisContent(input);
    return saveNewHypothesis(deps, principal, { ...content, sourceExperimentId: null });
  };
}
