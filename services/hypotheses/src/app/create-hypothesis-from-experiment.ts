import {
  NotFoundError,
  type Principal,
  type ReadModelArrivals,
  type ReadModelWait,
} from "@petri/service-kit";
import { settledExperimentView } from "@petri/events";
import { hypothesisFromExperiment } from "../domain/from-experiment.js";
import type { Hypothesis } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";
import { saveNewHypothesis } from "./save-hypothesis.js";

export interface FromExperimentDeps extends ChangingDeps {
  arrivals: ReadModelArrivals;
  wait: ReadModelWait;
}

/**
 * Saves the hypothesis of one of the caller's submitted experiments (domain/from-experiment.ts),
 * read from this service's experiment_views, never from what a caller relayed: only the
 * requester sees it (anyone else, and an experiment never heard of, 404), a draft is 409.
 */
export function makeCreateHypothesisFromExperiment(deps: FromExperimentDeps) {
  return async function createHypothesisFromExperiment(
    principal: Principal,
    input: { experimentId: string; title: string },
  ): Promise<Hypothesis> {
    const experiment = await settledExperimentView(deps, principal.accountId, input.experimentId);
    if (!experiment) throw new NotFoundError("experiment", input.experimentId);
    const content = hypothesisFromExperiment(principal.accountId, experiment, input.title);
    return saveNewHypothesis(deps, principal, content);
  };
}
