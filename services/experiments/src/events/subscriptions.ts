import { events, streamFor } from "@petri/contracts";
import type { HypothesisSaved } from "@petri/contracts/hypotheses";
import type { OperatorEligibilityChanged, PaymentUpdated } from "@petri/contracts/marketplace";
import type { Clock, ReadModelArrivals } from "@petri/service-kit";
import { envelopeOccurredAt, on } from "@petri/events";
import type { ConsumerDefinition } from "@petri/host";
import type { Kysely } from "kysely";
import type { ExperimentsDb } from "../db/schema.js";
import { applyHypothesisSaved } from "./hypothesis-saved.js";
import { applyOperatorEligibilityChanged } from "./operator-eligibility-changed.js";
import { applyPaymentUpdated } from "./payment-updated.js";

/** The durable consumer of the hypotheses events that keeps hypothesis_views. */
export const HYPOTHESIS_VIEWS_CONSUMER = "experiments-hypothesis-views";

/**
 * Every event the experiments service consumes, in one place. Two durable consumers:
 * - experiments-marketplace: the marketplace's projections (operator eligibility, payments).
 * - experiments-hypothesis-views: hypothesis_views from HypothesisSaved (D349), announcing
 *   each upsert to requests waiting for that hypothesis.
 */
export function experimentsConsumers(deps: {
  clock: Clock;
  arrivals: ReadModelArrivals;
}): ConsumerDefinition[] {
  return [
    {
      name: "experiments-marketplace",
      subscriptions: [
        {
          stream: streamFor("marketplace"),
          filterSubject: "petri.marketplace.>",
          handlers: {
            ...on(events.marketplace.operatorEligibilityChanged, ({ trx, payload }) =>
              applyOperatorEligibilityChanged(
                trx as Kysely<ExperimentsDb>,
                payload as OperatorEligibilityChanged,
                deps.clock.now(),
              ),
            ),
            // One version-guarded update: consumed without inbox or transaction (D329, D332).
            ...on(
              events.marketplace.paymentUpdated,
              ({ trx, envelope, payload }) =>
                applyPaymentUpdated(
                  trx as Kysely<ExperimentsDb>,
                  payload as PaymentUpdated,
                  envelopeOccurredAt(envelope) ?? deps.clock.now(),
                ),
              { idempotent: true },
            ),
          },
        },
      ],
    },
    {
      name: HYPOTHESIS_VIEWS_CONSUMER,
      subscriptions: [
        {
          stream: streamFor("hypotheses"),
          filterSubject: "petri.hypotheses.>",
          handlers: {
            // One version-guarded upsert: consumed without inbox or transaction (D329).
            ...on(
              events.hypotheses.hypothesisSaved,
              async ({ trx, payload, afterCommit }) => {
                const id = await applyHypothesisSaved(
                  trx as Kysely<ExperimentsDb>,
                  payload as HypothesisSaved,
                );
                if (id !== undefined) afterCommit(() => deps.arrivals.announce(id));
              },
              { idempotent: true },
            ),
          },
        },
      ],
    },
  ];
}
