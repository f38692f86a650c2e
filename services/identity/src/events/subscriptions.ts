import { events, streamFor } from "@petri/contracts";
import type { OperatorEligibilityChanged } from "@petri/contracts/marketplace";
import { on } from "@petri/events";
import type { ConsumerDefinition } from "@petri/host";
import type { Clock } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { applyOperatorStatus } from "../app/apply-operator-status.js";
import type { IdentityDb } from "../db/schema.js";

/** Every event the identity service consumes, in one place. */
export const identityConsumers = (clock: Clock): ConsumerDefinition[] => [
  {
    name: "identity-operator-roles",
    subscriptions: [
      {
        stream: streamFor("marketplace"),
        filterSubject: events.marketplace.operatorEligibilityChanged.subject,
        handlers: on(events.marketplace.operatorEligibilityChanged, async ({ trx, payload }) => {
          await applyOperatorStatus(
            trx as Kysely<IdentityDb>,
            payload as OperatorEligibilityChanged,
            clock.now(),
          );
        }),
      },
    ],
  },
];
