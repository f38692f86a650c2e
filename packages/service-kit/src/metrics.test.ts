import { describe, expect, it } from "vitest";
import { counter, metricsRegistry, renderMetrics, sampledGauge, sharedRead } from "./metrics.js";

describe("metrics helpers", () => {
  it("returns the first definition when a name is defined again", () => {
    const first = counter({ name: "petri_test_defined_twice_total", help: "test" });
    expect(counter({ name: "petri_test_defined_twice_total", help: "test" })).toBe(first);
  });

  it("reads sampled gauges at scrape time from every source, leaving out failing ones", async () => {
    const gauge = sampledGauge({ name: "petri_test_depth", help: "test", labelNames: ["service"] });
    let depth = 3;
    const removeA = gauge.addSource(() => [{ labels: { service: "a" }, value: depth }]);
    const removeB = gauge.addSource(() => Promise.reject(new Error("database down")));
    gauge.addSource(async () => [{ labels: { service: "c" }, value: 7 }]);

    expect(await renderMetrics()).toContain('petri_test_depth{service="a"} 3');
    depth = 5;
    const text = await renderMetrics();
    expect(text).toContain('petri_test_depth{service="a"} 5');
    expect(text).toContain('petri_test_depth{service="c"} 7');

    removeA();
    removeB();
    const values = (await metricsRegistry.getSingleMetric("petri_test_depth")!.get()).values;
    expect(values.map((v) => v.labels.service)).toEqual(["c"]);
  });

  it("shares one read between the gauges of a scrape", async () => {
    let reads = 0;
    const read = sharedRead(async () => ++reads, 60_000);
    expect(await Promise.all([read(), read()])).toEqual([1, 1]);
    expect(await read()).toBe(1);
  });
});
