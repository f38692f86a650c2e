import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus as Status } from "@petri/contracts/health";
import { describe, expect, it } from "vitest";
import { ManualClock, eventually } from "../test/manual-clock.js";
import { healthRoutes } from "./health.js";
import type { ReadinessReport } from "./hosted-service.js";

function setup() {
  const clock = new ManualClock();
  const state = { ready: true, throws: false, calls: 0 };
  const readiness = async (): Promise<ReadinessReport> => {
    state.calls += 1;
    if (state.throws) throw new Error("db down");
    return { ready: state.ready, checks: [{ name: "db", ok: state.ready }] };
  };
  const transport = createRouterTransport((router) =>
    healthRoutes(router, readiness, ["petri.identity.v1.IdentityService"], { clock }),
  );
  return { client: createClient(Health, transport), clock, state };
}

describe("grpc.health.v1 Check", () => {
  it("answers SERVING when ready and NOT_SERVING when not (or when readiness throws)", async () => {
    const { client, state } = setup();
    expect((await client.check({})).status).toBe(Status.SERVING);
    expect((await client.check({ service: "petri.identity.v1.IdentityService" })).status).toBe(
      Status.SERVING,
    );
    state.ready = false;
    expect((await client.check({})).status).toBe(Status.NOT_SERVING);
    state.ready = true;
    state.throws = true;
    expect((await client.check({})).status).toBe(Status.NOT_SERVING);
  });

  it("answers NotFound for a service it does not host", async () => {
    const { client } = setup();
    const error = await client.check({ service: "petri.other.v1.OtherService" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.NotFound);
  });

  it("List reports every known name", async () => {
    const { client } = setup();
    const { statuses } = await client.list({});
    expect(Object.keys(statuses).sort()).toEqual(["", "petri.identity.v1.IdentityService"]);
    expect(statuses[""]?.status).toBe(Status.SERVING);
  });
});

describe("grpc.health.v1 Watch", () => {
  it("sends the current status, then only changes, polling every 2 s on the injected clock", async () => {
    const { client, clock, state } = setup();
    const controller = new AbortController();
    const received: Status[] = [];
    const watching = (async () => {
      for await (const message of client.watch({}, { signal: controller.signal }))
        received.push(message.status);
    })().catch((e: unknown) => e);

    await eventually(() => received.length === 1 && clock.pendingSleeps === 1);
    expect(received).toEqual([Status.SERVING]);
    expect(state.calls).toBe(1);

    clock.advance(1_999); // not yet time to poll
    await new Promise((r) => setTimeout(r, 5));
    expect(state.calls).toBe(1);

    clock.advance(1); // poll: unchanged, nothing sent
    await eventually(() => state.calls === 2 && clock.pendingSleeps === 1);
    expect(received).toEqual([Status.SERVING]);

    state.ready = false;
    clock.advance(2_000);
    await eventually(() => received.length === 2);
    expect(received).toEqual([Status.SERVING, Status.NOT_SERVING]);

    state.ready = true;
    await eventually(() => clock.pendingSleeps === 1);
    clock.advance(2_000);
    await eventually(() => received.length === 3);
    expect(received.at(-1)).toBe(Status.SERVING);

    await eventually(() => clock.pendingSleeps === 1);
    controller.abort();
    const ended = await watching;
    expect(ended === undefined || (ended as ConnectError).code === Code.Canceled).toBe(true);
    expect(clock.pendingSleeps).toBe(0); // the poll loop stopped with the call
  });

  it("reports SERVICE_UNKNOWN for an unknown service and keeps the call open until cancelled", async () => {
    const { client } = setup();
    const controller = new AbortController();
    const received: Status[] = [];
    const watching = (async () => {
      for await (const message of client.watch({ service: "nope" }, { signal: controller.signal })) {
        received.push(message.status);
      }
      return "ended";
    })().catch(() => "cancelled");
    await eventually(() => received.length === 1);
    expect(received).toEqual([Status.SERVICE_UNKNOWN]);
    const raced = await Promise.race([watching, new Promise((r) => setTimeout(() => r("still open"), 20))]);
    expect(raced).toBe("still open");
    controller.abort();
    expect(await watching).toBe("cancelled");
  });
});
