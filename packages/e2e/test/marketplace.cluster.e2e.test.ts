import { describe } from "vitest";
import { marketplaceScenarioTests } from "./marketplace.suite.js";
import { clusterOfBlock } from "./support/blocks.js";
import { clusterInfraReady } from "./support/hosts.js";

describe.skipIf(!(await clusterInfraReady()))(
  "the marketplace loop, cluster mode (a process per service, two gateways)",
  { timeout: 180_000 },
  () => {
    const deployment = clusterOfBlock("marketplace");

    marketplaceScenarioTests(() => deployment.target, {
      claimRace: "eight operators claim one job at once over both gateways: exactly one wins",
      claimants: 8,
      approveDisputeRace: "approve and dispute sent together over both gateways: exactly one wins",
    });
  },
);
