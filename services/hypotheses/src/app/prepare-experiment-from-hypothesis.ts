import type { Principal } from "@petri/service-kit";
import type { Hypothesis, JsonObject } from "../domain/hypothesis.js";
import {
  assertConvertible,
  experimentRequestFor,
  parseAdditionalFields,
  toExperimentIdempotencyKey,
} from "../domain/to-experiment.js";
import type { ReadingDeps } from "./deps.js";
import { ownedHypothesis } from "./owned-hypothesis.js";

export interface PreparedExperiment {
  request: JsonObject;
  idempotencyKey: string;
  hypothesis: Hypothesis;
}

/**
 * The first step of POST /hypotheses/{id}/to-experiment as gateways of an earlier build make it:
 * the experiment request and the key to create it with (domain/to-experiment.ts). Deprecated:
 * the experiments service's CreateExperimentFromHypothesis does the whole route (D349).
 * Changes nothing: the hypothesis becomes USED when the experiment exists (link-experiment.ts).
 */
export function makePrepareExperimentFromHypothesis(deps: ReadingDeps) {
  return async function prepareExperimentFromHypothesis(
    principal: Principal,
    input: { hypothesisId: string; additionalFieldsJson: string; idempotencyKey: string },
  ): Promise<PreparedExperiment> {
    const additionalFields = parseAdditionalFields(input.additionalFieldsJson);
    const hypothesis = await ownedHypothesis(deps.db, principal, input.hypothesisId);
    assertConvertible(hypothesis);
    const request = experimentRequestFor(hypothesis, additionalFields);
    return {
      request,
      idempotencyKey: toExperimentIdempotencyKey(hypothesis.id, input.idempotencyKey, request),
      hypothesis,
    };
  };
}
