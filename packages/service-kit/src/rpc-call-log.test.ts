import { createClient, createRouterTransport } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { Health, HealthCheckResponseSchema } from "@petri/contracts/health";
import { describe, expect, it } from "vitest";
import { captureLogs } from "../test/log-capture.js";
import { NotFoundError } from "./errors.js";
import { serverInterceptors } from "./interceptors/index.js";
import { PRINCIPAL_HEADER, type Principal } from "./principal.js";

const CHECK = "grpc.health.v1.Health/Check";
const WATCH = "grpc.health.v1.Health/Watch";
const principal: Principal = { accountId: "acc_rpc", role: "requester", tier: "standard" };

/** A Health service behind the standard server chain, logging at `level`. */
function serviceLoggingAt(level: "debug" | "info") {
  const capture = captureLogs(level);
  const transport = createRouterTransport(
    (router) =>
      router.service(Health, {
        check: (req) => {
          if (req.service === "missing") throw new NotFoundError("service", "missing");
          return create(HealthCheckResponseSchema, { status: 1 });
        },
        async *watch(req) {
          yield create(HealthCheckResponseSchema, { status: 1 });
          if (req.service === "failing") throw new NotFoundError("service", "failing");
          yield create(HealthCheckResponseSchema, { status: 1 });
        },
      }),
    {
      router: {
        interceptors: serverInterceptors({
          logger: capture.logger,
          verifier: { verify: () => Promise.resolve(principal) },
        }),
      },
    },
  );
  return { capture, client: createClient(Health, transport) };
}

const rpcLines = (lines: Array<Record<string, any>>) => lines.filter((line) => line.msg === "rpc");

describe("the rpc access line", () => {
  it("is one debug line per call, written when it ends, with the outcome, duration and ids", async () => {
    const { capture, client } = serviceLoggingAt("debug");
    await client.check(
      { service: "" },
      {
        headers: {
          [PRINCIPAL_HEADER]: "token",
          "x-request-id": "req-rpc",
          traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        },
      },
    );
    await expect(client.check({ service: "missing" })).rejects.toThrow(/was not found/);
    const lines = rpcLines(capture.lines);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: "debug",
      service: "test",
      procedure: CHECK,
      code: "ok",
      request_id: "req-rpc",
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      span_id: "00f067aa0ba902b7",
      account_id: "acc_rpc",
    });
    expect(lines[0]!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(lines[1]).toMatchObject({ procedure: CHECK, code: "not_found" });
    expect(lines[1]).not.toHaveProperty("account_id");
  });

  it("ends a streaming call when its stream ends, with the stream's outcome", async () => {
    const { capture, client } = serviceLoggingAt("debug");
    const received: number[] = [];
    for await (const message of client.watch({ service: "" })) received.push(message.status);
    expect(received).toHaveLength(2);
    await expect(async () => {
      for await (const message of client.watch({ service: "failing" })) received.push(message.status);
    }).rejects.toThrow(/was not found/);
    const lines = rpcLines(capture.lines);
    expect(lines.map((line) => [line.procedure, line.code])).toEqual([
      [WATCH, "ok"],
      [WATCH, "not_found"],
    ]);
  });

  it("writes nothing at info level", async () => {
    const { capture, client } = serviceLoggingAt("info");
    await client.check({ service: "" });
    await expect(client.check({ service: "missing" })).rejects.toThrow();
    expect(rpcLines(capture.lines)).toEqual([]);
  });
});
