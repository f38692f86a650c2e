import { type EventSpec, events, streamFor } from "@petri/contracts";
import type { Experiment } from "@petri/contracts/experiments";
import { type EventHandler, on } from "@petri/events";
import type { ConsumerDefinition } from "@petri/host";
import type { ReadModelArrivals } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { CloudLabsDb } from "../db/schema.js";
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
          await applyExperimentView(trx as Kysely<CloudLabsDb>, event);
          const experimentId = event.experiment?.id ?? "";
          afterCommit(() => arrivals.announce(experimentId));
        },
        VIEW_UPSERT,
      ),
    ),
  );
}

/**
 * Every event the cloudlabs service consumes, in one place: the experiment_views read model,
 * from every experiments event, on a durable consumer of its own (created, it replays the
 * stream's whole history, so experiments submitted before it existed are known too).
 */
export function cloudLabsConsumers(deps: { arrivals: ReadModelArrivals }): ConsumerDefinition[] {
  return [
    {
      name: "cloudlabs-experiment-views",
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
