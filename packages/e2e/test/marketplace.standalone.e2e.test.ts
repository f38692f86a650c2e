import { afterAll, beforeAll, describe, it } from "vitest";
import type { ExperimentsTarget } from "./experiments.scenarios.js";
import {
  approvalScenario,
  approveDisputeRaceScenario,
  authorizationMatrixScenario,
  claimRaceScenario,
  disputeScenario,
  readmeLoopScenario,
} from "./marketplace.scenarios.js";
import { WebhookReceiver } from "./support/webhook-receiver.js";
import { webhookDeliveriesScenario } from "./webhooks.scenarios.js";
import { STAFF, startStandaloneHost } from "./support/hosts.js";

describe(
  "the marketplace loop, standalone mode (one process, embedded PostgreSQL, in-process bus)",
  { timeout: 180_000 },
  () => {
    let host: Awaited<ReturnType<typeof startStandaloneHost>>;
    let target: ExperimentsTarget;
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      host = await startStandaloneHost("petri-e2e-marketplace");
      target = { baseUrls: [host.petri.url], staff: STAFF };
      receiver = await WebhookReceiver.start();
    });

    afterAll(async () => {
      await receiver?.close();
      await host?.stop();
    });

    it("post -> claim -> start -> issue -> submit with files -> signed downloads -> approve; money released", () =>
      approvalScenario(target));

    it("the README's loop with docs/examples: the example lab claims the example request and its results are accepted", () =>
      readmeLoopScenario(target));
    it("submit -> dispute -> staff evaluation -> split resolution; money conserved", () =>
      disputeScenario(target));
    it("six operators claim one job at once: one 200, five 409 experiment_already_claimed", () =>
      claimRaceScenario(target));
    it("approve and dispute sent together: exactly one wins, the ledger agrees", () =>
      approveDisputeRaceScenario(target));
    it("authorisation matrix of the operator and results endpoints", () =>
      authorizationMatrixScenario(target));
    it("webhooks: signed deliveries of every event to an HTTPS receiver, delivery log, replay, test endpoint", () =>
      webhookDeliveriesScenario(target, receiver));
  },
);
