import { HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import { FakeClock } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import type { ServiceClients } from "./clients.js";
import { ServiceHealth } from "./service-health.js";

/** Health clients whose checks count calls and wait until released. */
function fakeHealth() {
  const state = { calls: 0, down: new Set<string>(), release: [] as Array<() => void> };
  const client = (service: string) => ({
    check: async () => {
      state.calls += 1;
      await new Promise<void>((resolve) => state.release.push(resolve));
      if (state.down.has(service)) throw new Error("unreachable");
      return { status: HealthCheckResponse_ServingStatus.SERVING };
    },
  });
  const health = {
    identity: client("identity"),
    engine: client("engine"),
  } as unknown as ServiceClients["health"];
  const releaseAll = () => {
    for (const release of state.release.splice(0)) release();
  };
  return { state, health, releaseAll };
}

async function settled<T>(promise: Promise<T>, releaseAll: () => void): Promise<T> {
  // Checks start asynchronously; release until the probe finishes.
  for (;;) {
    releaseAll();
    const result = await Promise.race([
      promise,
      new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined))),
    ]);
    if (result !== undefined) return result;
  }
}

describe("ServiceHealth", () => {
  it("shares one probe between concurrent requests and reuses its report for maxAgeMs", async () => {
    const clock = new FakeClock("2026-03-02T10:00:00.000Z");
    const { state, health, releaseAll } = fakeHealth();
    const services = new ServiceHealth({ health, clock, maxAgeMs: 1_000, services: ["identity", "engine"] });

    const together = Promise.all([services.current(), services.current(), services.current()]);
    const reports = await settled(together, releaseAll);
    expect(state.calls).toBe(2); // one check per service, not per request
    expect(reports[0]).toBe(reports[2]);
    expect(reports[0]).toMatchObject({ allReady: true, checkedAt: clock.now().getTime() });

    await clock.advance(999);
    expect(await services.current()).toBe(reports[0]);
    expect(state.calls).toBe(2);

    await clock.advance(1);
    state.down.add("engine");
    const fresh = await settled(services.current(), releaseAll);
    expect(state.calls).toBe(4);
    expect(fresh).toMatchObject({
      allReady: false,
      services: { identity: { status: "ready" }, engine: { status: "unreachable" } },
    });
  });
});
