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
import { STAFF, clusterInfraReady, startClusterHost } from "./support/hosts.js";

describe.skipIf(!(await clusterInfraReady()))(
  "the marketplace loop, cluster mode (a process per service, two gateways)",
  { timeout: 180_000 },
  () => {
    let host: Awaited<ReturnType<typeof startClusterHost>>;
    let target: ExperimentsTarget;
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      host = await startClusterHost("marketplace");
      target = { baseUrls: host.baseUrls, staff: STAFF };
      receiver = await WebhookReceiver.start();
    }, 360_000);

    afterAll(async () => {
      await receiver?.close();
      await host?.stop();
    }, 120_000);

    it("post -> claim -> start -> issue -> submit with files -> signed downloads -> approve; money released", () =>
      approvalScenario(target));

    it("the README's loop with docs/examples: the example lab claims the example request and its results are accepted", () =>
      readmeLoopScenario(target));
    it("submit -> dispute -> staff evaluation -> split resolution; money conserved", () =>
      disputeScenario(target));
    it("eight operators claim one job at once over both gateways: exactly one wins", () =>
      claimRaceScenario(target, 8));
    it("approve and dispute sent together over both gateways: exactly one wins", () =>
      approveDisputeRaceScenario(target));
    it("authorisation matrix of the operator and results endpoints", () =>
      authorizationMatrixScenario(target));
    it("webhooks: signed deliveries of every event to an HTTPS receiver, delivery log, replay, test endpoint", () =>
      webhookDeliveriesScenario(target, receiver));
  },
);
