import { FakeClock } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import { FakeIdentity, bodyOf, from, gatewayFor } from "../../../test/support/fake-identity.js";

const SOURCE = "198.51.100.80";

describe("health and probes", () => {
  it("GET /health is 200 when every service is serving and 503 naming the one that is not", async () => {
    const clock = new FakeClock("2026-03-02T10:00:00.000Z");
    const identity = await FakeIdentity.create(clock);
    const app = await gatewayFor(identity);
    const ok = await app.request("/health", {}, from(SOURCE));
    expect(ok.status).toBe(200);
    expect(await bodyOf(ok)).toMatchObject({ status: "ok", checked_at: "2026-03-02T10:00:00.000Z" });

    identity.notServing.add("engine");
    // Within a second the last report stands (readiness is not probed per request).
    await clock.advance(999);
    const cached = await app.request("/health", {}, from(SOURCE));
    expect(cached.status).toBe(200);
    expect((await bodyOf(cached)).checked_at).toBe("2026-03-02T10:00:00.000Z");
    await clock.advance(1);
    const degraded = await app.request("/health", {}, from(SOURCE));
    expect(degraded.status).toBe(503);
    const health = await bodyOf(degraded);
    expect(health.status).toBe("degraded");
    expect(health.services.engine.status).toBe("not_ready");
    expect(health.services.identity.status).toBe("ready");
    // Outside the quota: its answer is cheaper than a draw would be.
    expect(degraded.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("GET /healthz and /readyz describe this process only, without calling any service", async () => {
    const identity = await FakeIdentity.create(new FakeClock());
    let ready = false;
    const app = await gatewayFor(identity, { ready: () => ready });
    expect(await bodyOf(await app.request("/healthz"))).toEqual({ status: "ok" });
    const notReady = await app.request("/readyz");
    expect(notReady.status).toBe(503);
    expect(await bodyOf(notReady)).toEqual({ status: "not_ready" });
    ready = true;
    expect((await app.request("/readyz")).status).toBe(200);
    expect(identity.calls.size).toBe(0);
  });
});
