import type { AccountRegistered } from "@petri/contracts/identity";
import { events, streamFor } from "@petri/contracts";
import { type ConsumerDefinition, envelopeOccurredAt, envelopeVersion, on } from "@petri/events";
import type { Kysely } from "kysely";
import { recordAccountContact } from "../app/record-account-contact.js";
import type { NotificationsDb } from "../db/schema.js";

/** Every event the notifications service consumes, in one place. */
export const notificationsConsumers: ConsumerDefinition[] = [
  {
    name: "notifications-accounts",
    subscriptions: [
      {
        stream: streamFor("identity"),
        filterSubject: events.identity.accountRegistered.subject,
        handlers: on(events.identity.accountRegistered, ({ trx, envelope, payload }) =>
          recordAccountContact(trx as Kysely<NotificationsDb>, payload as AccountRegistered, {
            aggregateVersion: envelopeVersion(envelope),
            occurredAt: envelopeOccurredAt(envelope) ?? new Date(0),
          }),
        ),
      },
    ],
  },
];
