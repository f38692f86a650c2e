import { experimentViewSubscription } from "@petri/events";
import type { ConsumerDefinition } from "@petri/host";
import type { ReadModelArrivals } from "@petri/service-kit";

/**
 * Every event the cloudlabs service consumes, in one place: the experiment_views read model,
 * from every experiments event, on a durable consumer of its own (created, it replays the
 * stream's whole history, so experiments submitted before it existed are known too).
 */
export function cloudLabsConsumers(deps: { arrivals: ReadModelArrivals }): ConsumerDefinition[] {
  return [
    {
      name: "cloudlabs-experiment-views",
      subscriptions: [experimentViewSubscription(deps.arrivals)],
    },
  ];
}
