import { describe } from "vitest";
import { experimentScenarioTests } from "./experiments.suite.js";
import { clusterOfBlock } from "./support/blocks.js";
import { clusterInfraReady } from "./support/hosts.js";

describe.skipIf(!(await clusterInfraReady()))(
  "experiment requests, cluster mode (a process per service, two gateways)",
  () => {
    // Every scenario spreads its requests over both gateway replicas.
    const deployment = clusterOfBlock("experiments");

    experimentScenarioTests(() => deployment.target, "ten at once over two gateways");
  },
);
