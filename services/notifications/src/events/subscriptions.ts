import { type AccountRegistered, AccountRegisteredSchema } from "@petri/contracts/identity";
import { events, streamFor } from "@petri/contracts";
import type { ConsumerDefinition } from "@petri/events";
import { timestampDate } from "@bufbuild/protobuf/wkt";
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
        handlers: {
          [AccountRegisteredSchema.typeName]: ({ trx, envelope, payload }) =>
            recordAccountContact(trx as Kysely<NotificationsDb>, payload as AccountRegistered, {
              aggregateVersion: envelope.aggregateVersion,
              occurredAt: envelope.occurredAt ? timestampDate(envelope.occurredAt) : new Date(0),
            }),
        },
      },
    ],
  },
];
