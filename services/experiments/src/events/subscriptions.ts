import { events, streamFor } from "@petri/contracts";
import type { OperatorEligibilityChanged, PaymentUpdated } from "@petri/contracts/marketplace";
import type { Clock } from "@petri/service-kit";
import { envelopeOccurredAt, on } from "@petri/events";
import type { ConsumerDefinition } from "@petri/host";
import type { Kysely } from "kysely";
import type { ExperimentsDb } from "../db/schema.js";
import { applyOperatorEligibilityChanged } from "./operator-eligibility-changed.js";
import { applyPaymentUpdated } from "./payment-updated.js";

/** Every event the experiments service consumes, in one place: the marketplace's projections. */
export function experimentsConsumers(deps: { clock: Clock }): ConsumerDefinition[] {
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
  ];
}
