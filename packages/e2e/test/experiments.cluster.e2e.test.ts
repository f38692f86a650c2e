import { afterAll, beforeAll, describe } from "vitest";
import type { ExperimentsTarget } from "./experiments.scenarios.js";
import { experimentScenarioTests } from "./experiments.suite.js";
import { STAFF, clusterInfraReady, startClusterHost } from "./support/hosts.js";

describe.skipIf(!(await clusterInfraReady()))(
  "experiment requests, cluster mode (a process per service, two gateways)",
  () => {
    let host: Awaited<ReturnType<typeof startClusterHost>>;
    let target: ExperimentsTarget;

    beforeAll(async () => {
      host = await startClusterHost("experiments");
      // Every scenario spreads its requests over both gateway replicas.
      target = { baseUrls: host.baseUrls, staff: STAFF };
    }, 360_000);

    afterAll(() => host?.stop(), 120_000);

    experimentScenarioTests(() => target, "ten at once over two gateways");
  },
);
