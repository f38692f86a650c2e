import { describe, expect, it } from "vitest";
import { captureLogs } from "../test/log-capture.js";
import {
  createRequestContext,
  currentRequestContext,
  runWithPrincipal,
  runWithRequestContext,
} from "./context.js";
import { parseTraceparent } from "./traceparent.js";

describe("createLogger", () => {
  it("writes JSON with the service name and a level label", () => {
    const { logger, lines } = captureLogs("info");
    logger.info({ experiment_id: "exp_1" }, "claimed");
    logger.debug("not at info");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: "info",
      service: "test",
      experiment_id: "exp_1",
      msg: "claimed",
    });
    expect(lines[0]).not.toHaveProperty("request_id");
  });

  it("adds request_id, trace_id and span_id from the request context", async () => {
    const { logger, lines } = captureLogs();
    const context = createRequestContext({
      parentTraceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      requestId: "req-abc",
    });
    await runWithRequestContext(context, async () => {
      await Promise.resolve();
      logger.info("inside");
    });
    logger.info("outside");
    expect(lines[0]).toMatchObject({
      request_id: "req-abc",
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      span_id: context.spanId,
    });
    expect(context.spanId).not.toBe("00f067aa0ba902b7");
    expect(lines[1]).not.toHaveProperty("trace_id");
  });

  it("redacts credentials wherever they sit", () => {
    const { logger, lines } = captureLogs();
    logger.info(
      {
        authorization: "Bearer top",
        req: {
          headers: { authorization: "Bearer nested", "x-api-key": "pk_live_1", "x-petri-principal": "eyJ" },
        },
        body: { password: "hunter2", account: { secret: "s3", token: "t0k" } },
        keep: "visible",
      },
      "request",
    );
    const text = JSON.stringify(lines[0]);
    for (const value of ["Bearer top", "Bearer nested", "pk_live_1", "eyJ", "hunter2", "s3", "t0k"]) {
      expect(text).not.toContain(value);
    }
    expect(lines[0]!.req.headers.authorization).toBe("[redacted]");
    expect(lines[0]!.body.account.token).toBe("[redacted]");
    expect(lines[0]!.keep).toBe("visible");
  });
});

describe("request context", () => {
  it("creates a child span of the caller's trace and keeps a safe request id", () => {
    const context = createRequestContext({
      parentTraceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      requestId: "abc-123",
    });
    expect(context.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(parseTraceparent(context.traceparent)).toEqual({
      traceId: context.traceId,
      spanId: context.spanId,
      flags: 1,
    });
    expect(context.requestId).toBe("abc-123");
  });

  it("replaces an unsafe or missing request id and starts a trace when there is none", () => {
    const injected = createRequestContext({ requestId: 'x\n{"level":"fatal"}' });
    expect(injected.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(createRequestContext({ requestId: "a".repeat(129) }).requestId).toMatch(/^req_/);
    expect(createRequestContext().traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it("runWithPrincipal adds the principal to the current context", () => {
    const outer = createRequestContext({ requestId: "r1" });
    runWithRequestContext(outer, () =>
      runWithPrincipal({ accountId: "usr_1", role: "staff", tier: "standard" }, () => {
        expect(currentRequestContext()).toMatchObject({ requestId: "r1", principal: { accountId: "usr_1" } });
      }),
    );
    expect(currentRequestContext()).toBeUndefined();
  });
});
