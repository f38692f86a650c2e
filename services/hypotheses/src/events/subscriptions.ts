import { events, streamFor } from "@petri/contracts";
import type { ExperimentSubmitted } from "@petri/contracts/experiments";
import { experimentViewSubscription, on } from "@petri/events";
import type { ConsumerDefinition } from "@petri/host";
import type { Clock, Logger, ReadModelArrivals } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { HypothesesDb } from "../db/schema.js";
import { applyExperimentSubmitted, namesSourceHypothesis } from "./experiment-submitted.js";

/**
 * Every event the hypotheses service consumes, in one place. Two durable consumers:
 * - hypotheses-experiments: the link of an experiment created from a hypothesis.
 * - hypotheses-experiment-views: the experiment_views read model, from every experiments event
 *   (a consumer of its own, so that it replays the streams' whole history when first created).
 */
export function hypothesesConsumers(deps: {
  clock: Clock;
  logger: Logger;
  arrivals: ReadModelArrivals;
}): ConsumerDefinition[] {
  return [
    {
      name: "hypotheses-experiments",
      subscriptions: [
        {
          stream: streamFor("experiments"),
          filterSubject: "petri.experiments.experiment_submitted",
          handlers: {
            ...on(
              events.experiments.experimentSubmitted,
              ({ trx, payload }) =>
                applyExperimentSubmitted(
                  trx as Kysely<HypothesesDb>,
                  payload as ExperimentSubmitted,
                  deps.clock.now(),
                  deps.logger,
                ),
              { appliesTo: namesSourceHypothesis },
            ),
          },
        },
      ],
    },
    {
      name: "hypotheses-experiment-views",
      subscriptions: [experimentViewSubscription(deps.arrivals)],
    },
  ];
}
