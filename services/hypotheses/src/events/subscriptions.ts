import { type EventSpec, events, streamFor } from "@petri/contracts";
import type { Experiment, ExperimentSubmitted } from "@petri/contracts/experiments";
import { type EventHandler, on } from "@petri/events";
import type { ConsumerDefinition } from "@petri/host";
import type { Clock, Logger, ReadModelArrivals } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { HypothesesDb } from "../db/schema.js";
import { applyExperimentSubmitted, namesSourceHypothesis } from "./experiment-submitted.js";
import { applyExperimentView } from "./experiment-view.js";

/** The view's upsert is guarded by the experiment's version: no inbox, no transaction (D329). */
const VIEW_UPSERT = { idempotent: true } as const;

/** Every experiments event carries the experiment after its change; each one refreshes the view. */
function experimentViewHandlers(arrivals: ReadModelArrivals): Record<string, EventHandler> {
  const specs = Object.values(events.experiments) as EventSpec[];
  return Object.assign(
    {},
    ...specs.map((spec) =>
      on(
        spec,
        async ({ trx, payload, afterCommit }) => {
          const event = payload as { experiment?: Experiment };
          await applyExperimentView(trx as Kysely<HypothesesDb>, event);
          const experimentId = event.experiment?.id ?? "";
          afterCommit(() => arrivals.announce(experimentId));
        },
        VIEW_UPSERT,
      ),
    ),
  );
}

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
      subscriptions: [
        {
          stream: streamFor("experiments"),
          filterSubject: "petri.experiments.>",
          handlers: experimentViewHandlers(deps.arrivals),
        },
      ],
    },
  ];
}
