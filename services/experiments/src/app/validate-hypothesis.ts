import { type HypothesisValidation, validateHypothesis } from "../domain/intake/index.js";

/** POST /validate/hypothesis: validity and suggestions that make a hypothesis testable. */
export function makeValidateHypothesis() {
  return function validateHypothesisUseCase(input: {
    statement: string;
    nullHypothesis: string;
    rationale: string;
  }): HypothesisValidation {
    // proto3 sends "" for an absent string: absent, not empty.
    const body: Record<string, string> = {};
    if (input.statement !== "") body.statement = input.statement;
    if (input.nullHypothesis !== "") body.null_hypothesis = input.nullHypothesis;
    if (input.rationale !== "") body.rationale = input.rationale;
    return validateHypothesis(body);
  };
}
