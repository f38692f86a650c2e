import {
  NotFoundError,
  type Principal,
  type ReadModelArrivals,
  type ReadModelWait,
  newId,
} from "@petri/service-kit";
import { settledExperimentView } from "@petri/events";
import { insertHypothesis } from "../db/hypotheses.js";
import { hypothesisFromExperiment } from "../domain/from-experiment.js";
import type { Hypothesis } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";
import { recordHypothesisSaved } from "./hypothesis-events.js";

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
    const now = deps.clock.now();
    return deps.unitOfWork.run(async (trx) => {
      const saved = await insertHypothesis(trx, {
        id: newId("hyp", now),
        ownerAccountId: principal.accountId,
        ...content,
        status: "DRAFT",
        experimentsCount: 0,
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      await recordHypothesisSaved(trx, saved, now);
      return saved;
    });
  };
}
