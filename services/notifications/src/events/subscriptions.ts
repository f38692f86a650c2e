import { events, streamFor } from "@petri/contracts";
import type { AccountRegistered } from "@petri/contracts/identity";
import { type EventContext, envelopeOccurredAt, envelopeVersion, on } from "@petri/events";
import type { ConsumerDefinition } from "@petri/host";
import type { Kysely } from "kysely";
import { recordAccountContact } from "../app/record-account-contact.js";
import type { ExperimentEventFacts, makeScheduleWebhookDelivery } from "../app/schedule-webhook-delivery.js";
import type { NotificationsDb } from "../db/schema.js";
import { claimedFacts } from "./experiment-claimed.js";
import { disputedFacts } from "./experiment-disputed.js";
import { startedFacts } from "./experiment-started.js";
import { issueFacts } from "./issue-reported.js";
import { approvedFacts } from "./results-approved.js";
import { completedFacts } from "./results-submitted.js";

/** Every event the notifications service consumes, in one place. */
export function notificationsConsumers(deps: {
  scheduleWebhookDelivery: ReturnType<typeof makeScheduleWebhookDelivery>;
}): ConsumerDefinition[] {
  const schedule = async ({ trx, afterCommit }: EventContext, facts: ExperimentEventFacts) => {
    await deps.scheduleWebhookDelivery(trx as Kysely<NotificationsDb>, facts, afterCommit);
  };
  return [
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
    {
      // The docs/api.md webhook events: claimed, started, issue, completed, approved, disputed.
      name: "notifications-webhooks",
      subscriptions: [
        {
          stream: streamFor("experiments"),
          filterSubject: "petri.experiments.>",
          handlers: {
            ...on(events.experiments.experimentClaimed, (ctx) =>
              schedule(ctx, claimedFacts(ctx.envelope, ctx.payload)),
            ),
            ...on(events.experiments.experimentStarted, (ctx) =>
              schedule(ctx, startedFacts(ctx.envelope, ctx.payload)),
            ),
            ...on(events.experiments.issueReported, (ctx) =>
              schedule(ctx, issueFacts(ctx.envelope, ctx.payload)),
            ),
            ...on(events.experiments.resultsSubmitted, (ctx) =>
              schedule(ctx, completedFacts(ctx.envelope, ctx.payload)),
            ),
            ...on(events.experiments.resultsApproved, (ctx) =>
              schedule(ctx, approvedFacts(ctx.envelope, ctx.payload)),
            ),
            ...on(events.experiments.experimentDisputed, (ctx) =>
              schedule(ctx, disputedFacts(ctx.envelope, ctx.payload)),
            ),
          },
        },
      ],
    },
  ];
}
