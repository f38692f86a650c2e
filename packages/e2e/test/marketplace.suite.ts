/**
 * The marketplace-loop tests both deployment modes run: registered in the calling describe
 * block against its deployment, so each mode's file keeps only its set-up.
 */
import { it } from "vitest";
import type { ExperimentsTarget } from "./experiments.scenarios.js";
import {
  approvalScenario,
  approveDisputeRaceScenario,
  authorizationMatrixScenario,
  claimRaceScenario,
  disputeScenario,
  readmeLoopScenario,
} from "./marketplace.scenarios.js";
import { webhookReceiverOfBlock } from "./support/blocks.js";
import { webhookDeliveriesScenario } from "./webhooks.scenarios.js";

/**
 * How a mode runs the races: a cluster sends them over both gateways, so its test names say so
 * and more operators claim at once (`claimants`; the scenario's own number when left out).
 */
export interface MarketplaceRaces {
  claimRace: string;
  claimants?: number;
  approveDisputeRace: string;
}

/**
 * `target` is read when a test runs (the deployment starts in beforeAll); the webhook tests'
 * receiver starts after the deployment and stops before it.
 */
export function marketplaceScenarioTests(target: () => ExperimentsTarget, races: MarketplaceRaces): void {
  const webhooks = webhookReceiverOfBlock();

  it("post -> claim -> start -> issue -> submit with files -> signed downloads -> approve; money released", () =>
    approvalScenario(target()));

  it("the README's loop with docs/examples: the example lab claims the example request and its results are accepted", () =>
    readmeLoopScenario(target()));
  it("submit -> dispute -> staff evaluation -> split resolution; money conserved", () =>
    disputeScenario(target()));
  it(races.claimRace, () => claimRaceScenario(target(), races.claimants));
  it(races.approveDisputeRace, () => approveDisputeRaceScenario(target()));
  it("authorisation matrix of the operator and results endpoints", () =>
    authorizationMatrixScenario(target()));
  it("webhooks: signed deliveries of every event to an HTTPS receiver, delivery log, replay, test endpoint", () =>
    webhookDeliveriesScenario(target(), webhooks.receiver));
}
