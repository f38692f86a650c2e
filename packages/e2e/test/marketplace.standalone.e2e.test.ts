import { describe } from "vitest";
import { marketplaceScenarioTests } from "./marketplace.suite.js";
import { standaloneOfBlock } from "./support/blocks.js";

describe(
  "the marketplace loop, standalone mode (one process, embedded PostgreSQL, in-process bus)",
  { timeout: 180_000 },
  () => {
    const deployment = standaloneOfBlock("petri-e2e-marketplace");

    marketplaceScenarioTests(() => deployment.target, {
      claimRace: "six operators claim one job at once: one 200, five 409 experiment_already_claimed",
      approveDisputeRace: "approve and dispute sent together: exactly one wins, the ledger agrees",
    });
  },
);
