import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type MetricsTarget,
  countersMoveByKnownRequests,
  processAndMessagingFamiliesAreThere,
} from "./metrics.scenarios.js";
import { startStandaloneHost } from "./support/hosts.js";

describe("Prometheus metrics, standalone mode (one registry for every service)", { timeout: 120_000 }, () => {
  let host: Awaited<ReturnType<typeof startStandaloneHost>>;
  let target: MetricsTarget;

  beforeAll(async () => {
    host = await startStandaloneHost("petri-e2e-metrics");
    const { metricsUrl } = host.petri;
    if (!metricsUrl) throw new Error("the host serves no metrics");
    target = { baseUrl: host.petri.url, metricsUrls: [metricsUrl] };
  });

  afterAll(() => host?.stop());

  it("serves /metrics apart from the public API", async () => {
    expect(new URL(target.metricsUrls[0]!).port).not.toBe(new URL(target.baseUrl).port);
    const publicMetrics = await fetch(`${target.baseUrl}/metrics`);
    expect(publicMetrics.status).toBe(404);
    await publicMetrics.arrayBuffer();
  });
  it("counters move by exactly the known requests", () => countersMoveByKnownRequests(target));
  it("process, pool, outbox and consumer families are reported", () =>
    processAndMessagingFamiliesAreThere(target));
});
