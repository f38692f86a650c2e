import { createRouterTransport, createClient } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { Health, HealthCheckResponseSchema } from "@petri/contracts/health";
import { describe, expect, it } from "vitest";
import { captureLogs } from "../test/log-capture.js";
import { rpcCallLogInterceptor } from "./rpc-call-log.js";

function clientLoggingAt(level: "debug" | "info") {
  const capture = captureLogs(level);
  const transport = createRouterTransport(
    (router) =>
      router.service(Health, {
        check: () => create(HealthCheckResponseSchema, { status: 1 }),
        // eslint-disable-next-line require-yield
        async *watch() {
          return;
        },
      }),
    { router: { interceptors: [rpcCallLogInterceptor(capture.logger)] } },
  );
  return { capture, client: createClient(Health, transport) };
}

describe("rpcCallLogInterceptor", () => {
  it("writes one debug line per call received, naming the procedure", async () => {
    const { capture, client } = clientLoggingAt("debug");
    await client.check({ service: "" });
    await client.check({ service: "" });
    const lines = capture.lines.filter((line) => line.msg === "rpc received");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: "debug", procedure: "grpc.health.v1.Health/Check" });
  });

  it("writes nothing at info level", async () => {
    const { capture, client } = clientLoggingAt("info");
    await client.check({ service: "" });
    expect(capture.lines).toEqual([]);
  });
});
