import { afterAll, beforeAll, describe, it } from "vitest";
import {
  type MetricsTarget,
  countersMoveByKnownRequests,
  processAndMessagingFamiliesAreThere,
} from "./metrics.scenarios.js";
import { clusterInfraReady, startClusterHost } from "./support/hosts.js";

describe.skipIf(!(await clusterInfraReady()))(
  "Prometheus metrics, cluster mode (a registry per process: gateway on its metrics port, services on theirs)",
  { timeout: 300_000 },
  () => {
    let host: Awaited<ReturnType<typeof startClusterHost>>;
    let target: MetricsTarget;

    beforeAll(async () => {
      host = await startClusterHost("metrics", { gateways: 1 });
      target = { baseUrl: host.baseUrls[0]!, metricsUrls: host.metricsUrls };
    });

    afterAll(() => host?.stop());

    // GetExperiment may land on either experiments replica: the scrape sums every process.
    it("counters move by exactly the known requests", () => countersMoveByKnownRequests(target));
    it("process, pool, outbox and consumer families are reported", () =>
      processAndMessagingFamiliesAreThere(target));
  },
);
