import {
  NotFoundError,
  type Principal,
  type ReadModelArrivals,
  type ReadModelWait,
  isId,
  newId,
  readSettled,
} from "@petri/service-kit";
import { type ExperimentView, findExperimentView } from "../db/experiment-views.js";
import { insertHypothesis } from "../db/hypotheses.js";
import { hypothesisFromExperiment } from "../domain/from-experiment.js";
import type { Hypothesis } from "../domain/hypothesis.js";
import type { ChangingDeps } from "./deps.js";

export interface FromExperimentDeps extends ChangingDeps {
  arrivals: ReadModelArrivals;
  wait: ReadModelWait;
}

/**
 * The caller's view of the experiment, waiting (bounded) while it is unknown or still a draft:
 * its event, or the one that submits it, may not have been applied yet. Another account's
 * experiment is answered at once (a requester never changes).
 */
function settledView(
  deps: FromExperimentDeps,
  principal: Principal,
  experimentId: string,
): Promise<ExperimentView | undefined> {
  return readSettled({
    key: experimentId,
    read: () => findExperimentView(deps.db, experimentId),
    settled: (view) =>
      view !== undefined && (view.requesterAccountId !== principal.accountId || view.status !== "draft"),
    arrivals: deps.arrivals,
    wait: deps.wait,
  });
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
    // Text that is no experiment id can never arrive: no wait for it.
    const experiment = isId("exp", input.experimentId)
      ? await settledView(deps, principal, input.experimentId)
      : undefined;
    if (!experiment) throw new NotFoundError("experiment", input.experimentId);
    const content = hypothesisFromExperiment(principal.accountId, experiment, input.title);
    const now = deps.clock.now();
    return insertHypothesis(deps.db, {
      id: newId("hyp", now),
      ownerAccountId: principal.accountId,
      ...content,
      status: "DRAFT",
      experimentsCount: 0,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
  };
}
