import { events, streamFor } from "@petri/contracts";
import { on } from "@petri/events";
import type { ConsumerDefinition } from "@petri/host";
import { disputeResolved } from "./dispute-resolved.js";
import { experimentCancelled } from "./experiment-cancelled.js";
import { experimentClaimed } from "./experiment-claimed.js";
import { experimentDisputed } from "./experiment-disputed.js";
import { experimentOpened } from "./experiment-opened.js";
import { experimentStarted } from "./experiment-started.js";
import { experimentSubmitted, submissionNeedsProjection } from "./experiment-submitted.js";
import { experimentUpdated } from "./experiment-updated.js";
import type { EventDeps } from "./handlers.js";
import { issueReported } from "./issue-reported.js";
import { protocolProposed } from "./protocol-proposed.js";
import { resultsApproved } from "./results-approved.js";
import { resultsSubmitted } from "./results-submitted.js";

/** Every experiments event, one filter (a consumer reads one stream through one filter). */
const EXPERIMENTS = { stream: streamFor("experiments"), filterSubject: "petri.experiments.>" };

/**
 * A handler whose only effect is the job projection: its rule is idempotent and order-free, so
 * it is applied without inbox row or consumer transaction (D365). Handlers that also count a
 * job outcome for the quality metrics keep the inbox: counting twice is not harmless.
 */
const PROJECTION_ONLY = { idempotent: true } as const;

/**
 * Every event the marketplace consumes, in one place. Two durable consumers, so that one
 * cannot hold up the other: a ledger event waiting for the one it depends on (a hold not yet
 * recorded) is retried while the job feed keeps up to date.
 * - marketplace-jobs: the job projection and the operators' quality metrics.
 * - marketplace-ledger: the escrow ledger, its payment-provider calls and PaymentUpdated.
 */
export function marketplaceConsumers(deps: EventDeps): ConsumerDefinition[] {
  const x = events.experiments;
  return [
    {
      name: "marketplace-jobs",
      subscriptions: [
        {
          ...EXPERIMENTS,
          handlers: {
            ...on(x.experimentSubmitted, (ctx) => experimentSubmitted.jobs(ctx, deps), {
              ...PROJECTION_ONLY,
              appliesTo: submissionNeedsProjection,
            }),
            ...on(x.experimentOpened, (ctx) => experimentOpened.jobs(ctx, deps), PROJECTION_ONLY),
            ...on(x.experimentUpdated, (ctx) => experimentUpdated.jobs(ctx, deps), PROJECTION_ONLY),
            ...on(x.experimentCancelled, (ctx) => experimentCancelled.jobs(ctx, deps), PROJECTION_ONLY),
            ...on(x.protocolProposed, (ctx) => protocolProposed.jobs(ctx, deps), PROJECTION_ONLY),
            ...on(x.experimentClaimed, (ctx) => experimentClaimed.jobs(ctx, deps), PROJECTION_ONLY),
            ...on(x.experimentStarted, (ctx) => experimentStarted.jobs(ctx, deps), PROJECTION_ONLY),
            ...on(x.issueReported, (ctx) => issueReported.jobs(ctx, deps), PROJECTION_ONLY),
            ...on(x.resultsSubmitted, (ctx) => resultsSubmitted.jobs(ctx, deps), PROJECTION_ONLY),
            ...on(x.resultsApproved, (ctx) => resultsApproved.jobs(ctx, deps)),
            ...on(x.experimentDisputed, (ctx) => experimentDisputed.jobs(ctx, deps)),
            ...on(x.disputeResolved, (ctx) => disputeResolved.jobs(ctx, deps)),
          },
        },
      ],
    },
    {
      name: "marketplace-ledger",
      subscriptions: [
        {
          ...EXPERIMENTS,
          handlers: {
            ...on(x.experimentSubmitted, (ctx) => experimentSubmitted.ledger(ctx, deps)),
            ...on(x.experimentUpdated, (ctx) => experimentUpdated.ledger(ctx, deps)),
            ...on(x.experimentCancelled, (ctx) => experimentCancelled.ledger(ctx, deps)),
            ...on(x.resultsApproved, (ctx) => resultsApproved.ledger(ctx, deps)),
            ...on(x.disputeResolved, (ctx) => disputeResolved.ledger(ctx, deps)),
          },
        },
      ],
    },
  ];
}
