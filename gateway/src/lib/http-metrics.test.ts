import { Hono } from "hono";
import { metricsRegistry } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { httpMetrics } from "./http-metrics.js";

async function requests(labels: Record<string, string>): Promise<number> {
  const metric = metricsRegistry.getSingleMetric("petri_http_requests_total");
  const values = metric ? (await metric.get()).values : [];
  return values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value ?? 0;
}

describe("httpMetrics", () => {
  it("counts by route template and status, never by raw path", async () => {
    const app = new Hono();
    app.use("*", httpMetrics());
    app.use("*", async (_c, next) => next());
    app.get("/widgets/:widget_id", (c) =>
      c.req.param("widget_id") === "broken" ? Promise.reject(new Error("boom")) : c.json({ ok: true }),
    );
    app.onError((_error, c) => c.json({ error: "internal" }, 500));
    const route = "/widgets/{widget_id}";
    const before = {
      ok: await requests({ method: "GET", route, status: "200" }),
      failed: await requests({ method: "GET", route, status: "500" }),
      unmatched: await requests({ method: "GET", route: "(unmatched)", status: "404" }),
    };

    for (const id of ["w_1", "w_2", "w_3"]) expect((await app.request(`/widgets/${id}`)).status).toBe(200);
    expect((await app.request("/widgets/broken")).status).toBe(500);
    expect((await app.request("/nowhere/w_1")).status).toBe(404);

    expect(await requests({ method: "GET", route, status: "200" })).toBe(before.ok + 3);
    expect(await requests({ method: "GET", route, status: "500" })).toBe(before.failed + 1);
    expect(await requests({ method: "GET", route: "(unmatched)", status: "404" })).toBe(before.unmatched + 1);
    const text = await metricsRegistry.metrics();
    expect(text).not.toContain("w_1");
    expect(text).toContain(
      'petri_http_request_duration_seconds_count{method="GET",route="/widgets/{widget_id}"}',
    );
  });
});
