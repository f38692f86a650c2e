import { events, streamFor } from "@petri/contracts";
import type { ExperimentSubmitted } from "@petri/contracts/experiments";
import { on } from "@petri/events";
import type { ConsumerDefinition } from "@petri/host";
import type { Clock, Logger } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { HypothesesDb } from "../db/schema.js";
import { applyExperimentSubmitted, namesSourceHypothesis } from "./experiment-submitted.js";

/** Every event the hypotheses service consumes, in one place. */
export function hypothesesConsumers(deps: { clock: Clock; logger: Logger }): ConsumerDefinition[] {
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
  ];
}
