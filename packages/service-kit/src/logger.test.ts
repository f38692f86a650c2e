import { describe, expect, it } from "vitest";
import { captureLogs } from "../test/log-capture.js";
import { repeatedLogKeys } from "@petri/fixtures/service-kit";
import { createLogger } from "./logger.js";
import {
  createRequestContext,
  currentRequestContext,
  runWithPrincipal,
  runWithRequestContext,
} from "./context.js";
import { contextFromTraceparent, startEdgeSpan, traceparentOf } from "./tracing/trace-context.js";
import { trace } from "@opentelemetry/api";
import { recordSpans } from "../test/record-spans.js";

/** A request context as the gateway makes one: its span continues `traceparent` (a new trace without one). */
function contextUnder(init: { traceparent?: string; requestId?: string } = {}) {
  const parent = contextFromTraceparent(init.traceparent);
  const span = startEdgeSpan("test request", {}, parent);
  const { traceId, spanId } = span.spanContext();
  const context = createRequestContext({
    requestId: init.requestId ?? null,
    otel: trace.setSpan(parent, span),
  });
  return { context, traceId, spanId };
}

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
    const { context, spanId } = contextUnder({
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
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
      span_id: spanId,
    });
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

/** A logger as a host builds it, writing raw lines into an array. */
function rawLogs(options: { service?: string; format?: "json" | "pretty" } = {}) {
  const raw: string[] = [];
  const logger = createLogger({
    service: options.service ?? "standalone",
    level: "debug",
    ...(options.format ? { format: options.format } : {}),
    destination: { write: (line: string) => void raw.push(line) },
  });
  return { logger, raw };
}

describe("one key per line", () => {
  const principal = { accountId: "acc_1", role: "requester", tier: "standard" } as const;

  it("a service's child replaces the host's service name instead of repeating it", () => {
    const { logger, raw } = rawLogs();
    const identity = logger.child({ service: "identity" });
    const relay = identity.child({ service: "identity", component: "relay" });
    logger.info("host");
    identity.info("service");
    relay.info({ component: "relay", service: "identity" }, "component");
    expect(raw.map(repeatedLogKeys)).toEqual([[], [], []]);
    expect(raw.map((line) => JSON.parse(line).service)).toEqual(["standalone", "identity", "identity"]);
    expect(JSON.parse(raw[2]!)).toMatchObject({ component: "relay", msg: "component" });
  });

  it("context fields come once, with the account of the principal, even when bound or logged again", () => {
    const { logger, raw } = rawLogs();
    const bound = logger.child({ request_id: "bound", account_id: "bound" });
    const traced = contextUnder({ requestId: "req-1" });
    const context = { ...traced.context, principal };
    runWithRequestContext(context, () => {
      logger.info({ request_id: "req-1", trace_id: traced.traceId }, "logged again");
      bound.info("bound");
    });
    expect(raw.map(repeatedLogKeys)).toEqual([[], []]);
    expect(JSON.parse(raw[0]!)).toMatchObject({
      request_id: "req-1",
      trace_id: traced.traceId,
      span_id: traced.spanId,
      account_id: "acc_1",
    });
    // The request in progress names the request and caller, not what a logger was bound with.
    expect(JSON.parse(raw[1]!)).toMatchObject({ request_id: "req-1", account_id: "acc_1" });
  });

  it("fields named like pino's own keys are kept under logged_<key>", () => {
    const { logger, raw } = rawLogs();
    logger.info({ level: 3, time: "noon", msg: "field" }, "message");
    logger.info({ msg: "the message itself" });
    expect(raw.map(repeatedLogKeys)).toEqual([[], []]);
    expect(JSON.parse(raw[0]!)).toMatchObject({
      level: "info",
      msg: "message",
      logged_level: 3,
      logged_time: "noon",
      logged_msg: "field",
    });
    expect(JSON.parse(raw[1]!).msg).toBe("the message itself");
  });

  it("repeatedLogKeys finds a repeated key at any depth", () => {
    expect(repeatedLogKeys('{"service":"a","x":{"k":1,"k":2},"service":"b"}')).toEqual(["x.k", "service"]);
    expect(() => repeatedLogKeys("not json")).toThrow(/not a JSON log line/);
  });
});

describe("LOG_FORMAT pretty", () => {
  it("writes readable lines with the same fields, and sanitises them as the JSON ones", () => {
    const { logger, raw } = rawLogs({ service: "gateway", format: "pretty" });
    const jwt = "eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJhY2NfMSJ9.c2lnbmF0dXJl";
    runWithRequestContext(createRequestContext({ requestId: "req-pretty" }), () =>
      logger.info(
        { route: "/experiments/{experiment_id}", password: "hunter2", note: `Bearer ${jwt}` },
        "request",
      ),
    );
    const text = raw.join("");
    expect(text).toContain("request");
    expect(text).toContain("req-pretty");
    expect(text).toContain("/experiments/{experiment_id}");
    expect(text).toContain("gateway");
    expect(text).not.toMatch(/^\{/);
    for (const secret of ["hunter2", jwt]) expect(text).not.toContain(secret);
  });
});

describe("request context", () => {
  it("continues the caller's trace with a span of its own when exporting, and keeps a safe request id", async () => {
    const recording = recordSpans();
    try {
      const { context, traceId, spanId } = contextUnder({
        traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        requestId: "abc-123",
      });
      expect(traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
      expect(spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(spanId).not.toBe("00f067aa0ba902b7");
      expect(traceparentOf(context.otel)).toBe(`00-${traceId}-${spanId}-01`);
      expect(runWithRequestContext(context, () => traceparentOf())).toBe(`00-${traceId}-${spanId}-01`);
      expect(context.requestId).toBe("abc-123");
    } finally {
      await recording.stop();
    }
  });

  it("passes the caller's trace context on unchanged when nothing is exported", () => {
    const caller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const { context, traceId, spanId } = contextUnder({ traceparent: caller });
    expect([traceId, spanId]).toEqual(["4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"]);
    expect(runWithRequestContext(context, () => traceparentOf())).toBe(caller);
  });

  it("gives a request without a trace fresh ids, not sampled, when nothing is exported", () => {
    const first = contextUnder();
    const second = contextUnder();
    expect(first.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(first.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(second.traceId).not.toBe(first.traceId);
    expect(traceparentOf(first.context.otel)).toBe(`00-${first.traceId}-${first.spanId}-00`);
  });

  it("replaces an unsafe or missing request id; a malformed traceparent starts a new trace", () => {
    const injected = createRequestContext({ requestId: 'x\n{"level":"fatal"}' });
    expect(injected.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(createRequestContext({ requestId: "a".repeat(129) }).requestId).toMatch(/^req_/);
    for (const malformed of [
      "garbage",
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      undefined,
    ]) {
      const { traceId } = contextUnder(malformed === undefined ? {} : { traceparent: malformed });
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(traceId).not.toBe("00000000000000000000000000000000");
    }
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
