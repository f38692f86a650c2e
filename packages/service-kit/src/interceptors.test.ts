import { create } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createClient,
  createContextValues,
  createRouterTransport,
  type ConnectRouter,
  type HandlerContext,
} from "@connectrpc/connect";
import {
  Health,
  HealthCheckResponseSchema,
  HealthCheckResponse_ServingStatus,
} from "@petri/contracts/health";
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { captureLogs, type LogLine } from "../test/log-capture.js";
import { ManualClock } from "../test/manual-clock.js";
import { recordSpans } from "../test/record-spans.js";
import {
  createRequestContext,
  currentRequestContext,
  runWithRequestContext,
  type RequestContext,
} from "./context.js";
import { contextFromTraceparent, currentTraceIds, startEdgeSpan } from "./tracing/trace-context.js";
import { trace } from "@opentelemetry/api";
import {
  ConflictError,
  ForbiddenError,
  InvalidStateError,
  NotFoundError,
  RateLimitedError,
  SafetyRejectedError,
  UnauthenticatedError,
  UnavailableError,
  ValidationError,
} from "./errors.js";
import {
  attachPrincipal,
  clientInterceptors,
  errorDetailOf,
  errorDetailsObject,
  kPrincipal,
  principalInterceptor,
  propagateTrace,
  serverInterceptors,
} from "./interceptors/index.js";
import {
  InternalTokenSigner,
  InternalTokenVerifier,
  PRINCIPAL_HEADER,
  generateInternalKeyPair,
  type IssuedInternalToken,
  type Principal,
} from "./principal.js";

const alice: Principal = { accountId: "usr_alice", role: "requester", tier: "pro" };
const bob: Principal = { accountId: "usr_bob", role: "operator", tier: "standard", operatorId: "op_1" };
const SERVING = create(HealthCheckResponseSchema, { status: HealthCheckResponse_ServingStatus.SERVING });

/** What the handler observed, so tests can assert on the server side of a call. */
interface Seen {
  principal: Principal | undefined;
  context: RequestContext | undefined;
  /** The span active in the handler. */
  trace: { traceId: string; spanId: string } | undefined;
  headers: Headers;
}

/** Health's methods as a tiny test service: the request's `service` field says what to do. */
function testRoutes(seen: Seen[]) {
  const record = (ctx: HandlerContext) =>
    seen.push({
      principal: ctx.values.get(kPrincipal),
      context: currentRequestContext(),
      trace: currentTraceIds(),
      headers: ctx.requestHeader,
    });
  return (router: ConnectRouter) =>
    router.service(Health, {
      async check(req, ctx) {
        await Promise.resolve(); // prove the context survives an await
        record(ctx);
        switch (req.service) {
          case "validation":
            throw new ValidationError("request is invalid", [
              { field: "constraints.budget_max_usd", code: "invalid_value", message: "must be positive" },
            ]);
          case "not_found":
            throw new NotFoundError("experiment", "exp_123");
          case "invalid_state":
            throw new InvalidStateError("cannot approve a draft", "draft", ["submitted", "under_review"]);
          case "conflict":
            throw new ConflictError("already claimed", "already_claimed", { experiment_id: "exp_1" });
          case "conflict_retryable":
            throw new ConflictError("concurrent update", "conflict", { retryable: true, version: 7 });
          case "forbidden":
            throw new ForbiddenError("not your lab");
          case "safety":
            throw new SafetyRejectedError("select agent", { agent: "BSL-4" });
          case "unauthorized":
            throw new UnauthenticatedError("token revoked");
          case "rate":
            throw new RateLimitedError("slow down", { retry_after_seconds: 30, limit: 100n });
          case "unavailable":
            throw new UnavailableError("literature provider down");
          case "downstream":
            throw new ConnectError("from another service", Code.DataLoss, { "x-kept": "yes" });
          case "bug": {
            const error = new Error(
              'relation "experiments" does not exist: SELECT * FROM experiments WHERE id = $1',
            );
            throw error;
          }
          default:
            return SERVING;
        }
      },
      async *watch(req, ctx) {
        record(ctx);
        yield SERVING;
        await new Promise((r) => setTimeout(r, 1));
        record(ctx); // after a suspension, pulled later by the protocol layer
        if (req.service === "stream_not_found") throw new NotFoundError("run", "run_9");
        if (req.service === "stream_bug") throw new Error("boom at row 3");
        yield SERVING;
      },
      async list(_req, ctx) {
        record(ctx);
        return { statuses: {} };
      },
    });
}

let signer: InternalTokenSigner;
let verifier: InternalTokenVerifier;

beforeAll(async () => {
  const keys = await generateInternalKeyPair();
  signer = await InternalTokenSigner.create(keys.privateKeyPem);
  verifier = await InternalTokenVerifier.create([keys.publicKeyPem]);
});

/** The standard server and client chains around the test service, in memory. */
function setup() {
  const seen: Seen[] = [];
  const logs = captureLogs();
  const transport = createRouterTransport(testRoutes(seen), {
    router: { interceptors: serverInterceptors({ logger: logs.logger, verifier }) },
    transport: { interceptors: clientInterceptors(signer) },
  });
  return { client: createClient(Health, transport), seen, lines: logs.lines };
}

/** Runs `fn` as the gateway would: inside a request context that names the principal. */
function asGateway<T>(
  principal: Principal | undefined,
  fn: () => Promise<T>,
  init: { traceparent?: string; requestId?: string } = {},
) {
  // The gateway's own request span, continuing its caller's trace when there is one.
  const parent = contextFromTraceparent(init.traceparent);
  const span = startEdgeSpan("gateway request", {}, parent);
  const context = createRequestContext({
    requestId: init.requestId ?? null,
    otel: trace.setSpan(parent, span),
    ...(principal ? { principal } : {}),
  });
  return { context, span: span.spanContext(), result: runWithRequestContext(context, fn) };
}

async function callError(call: Promise<unknown>): Promise<ConnectError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectError);
  return error as ConnectError;
}

describe("principalInterceptor + attachPrincipal", () => {
  it("a call from the gateway's context carries the principal to the handler", async () => {
    const { client, seen } = setup();
    await asGateway(alice, () => client.list({})).result;
    expect(seen[0]!.principal).toEqual(alice);
    expect(seen[0]!.headers.get(PRINCIPAL_HEADER)).toMatch(/^ey/);
  });

  it("puts the verified principal into the server's request context too", async () => {
    // No ALS on the calling side: the in-memory transport would otherwise leak the
    // caller's context into the handler and hide a missing server-side context.
    const { client, seen } = setup();
    await client.list({}, { contextValues: createContextValues().set(kPrincipal, bob) });
    expect(seen[0]!.context?.principal).toEqual(bob);
  });

  it("refuses a protected procedure without a token: Unauthenticated, handler never runs", async () => {
    const { client, seen } = setup();
    const error = await callError(client.list({}));
    expect(error.code).toBe(Code.Unauthenticated);
    expect(errorDetailOf(error)?.reason).toBe("unauthorized");
    expect(seen).toHaveLength(0);
  });

  it("refuses an invalid token and logs why (without telling the caller)", async () => {
    const { client, seen, lines } = setup();
    const error = await callError(
      client.list({}, { headers: { [PRINCIPAL_HEADER]: "eyJhbGciOiJub25lIn0.e30." } }),
    );
    expect(error.code).toBe(Code.Unauthenticated);
    expect(error.rawMessage).toBe("invalid internal principal token");
    expect(seen).toHaveLength(0);
    const refusal = lines.find((l) => l.msg === "refused internal principal token");
    expect(refusal?.reason).toMatch(/ALG_NOT_ALLOWED/);
    expect(refusal?.procedure).toBe("grpc.health.v1.Health/List");
  });

  it("lets Health/Check and /Watch through without a token", async () => {
    const { client, seen } = setup();
    expect((await client.check({})).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    for await (const _ of client.watch({})) break;
    expect(seen[0]!.principal).toBeUndefined();
  });

  it("publicProcedures is the complete list when given", async () => {
    const transport = createRouterTransport(testRoutes([]), {
      router: {
        interceptors: [principalInterceptor(verifier, { publicProcedures: ["grpc.health.v1.Health/List"] })],
      },
    });
    const client = createClient(Health, transport);
    await expect(client.list({})).resolves.toBeDefined();
    expect((await callError(client.check({}))).code).toBe(Code.Unauthenticated);
  });

  it("takes the principal from the call's contextValues when given (no ALS needed)", async () => {
    const { client, seen } = setup();
    await client.list({}, { contextValues: createContextValues().set(kPrincipal, bob) });
    expect(seen[0]!.principal).toEqual(bob);
  });

  it("caches one token per principal until 10 s before expiry, then mints a new one", async () => {
    const clock = new ManualClock();
    const issued: Principal[] = [];
    const issuer = {
      async issue(principal: Principal): Promise<IssuedInternalToken> {
        issued.push(principal);
        return { token: `token-${issued.length}`, expiresAt: new Date(clock.now().getTime() + 60_000) };
      },
    };
    const headers: string[] = [];
    const transport = createRouterTransport(
      (router) =>
        router.service(Health, {
          check: (_req, ctx) => {
            headers.push(ctx.requestHeader.get(PRINCIPAL_HEADER) ?? "");
            return SERVING;
          },
        }),
      { transport: { interceptors: [attachPrincipal(issuer, { clock })] } },
    );
    const client = createClient(Health, transport);
    const call = (p: Principal) => asGateway(p, () => client.check({})).result;

    await Promise.all([call(alice), call(alice)]); // concurrent calls share one signing
    await call(bob);
    clock.advance(49_000); // 11 s left: still cached
    await call(alice);
    clock.advance(2_000); // 9 s left: refresh
    await call(alice);

    expect(issued).toEqual([alice, bob, alice]);
    expect(headers).toEqual(["token-1", "token-1", "token-2", "token-1", "token-3"]);
  });

  it("leaves an explicitly set header alone and sends none without a principal", async () => {
    const headers: Array<string | null> = [];
    const transport = createRouterTransport(
      (router) =>
        router.service(Health, {
          check: (_req, ctx) => {
            headers.push(ctx.requestHeader.get(PRINCIPAL_HEADER));
            return SERVING;
          },
        }),
      { transport: { interceptors: [attachPrincipal((p) => `fn-token-for-${p.accountId}`)] } },
    );
    const client = createClient(Health, transport);
    await asGateway(alice, () => client.check({}, { headers: { [PRINCIPAL_HEADER]: "explicit" } })).result;
    await client.check({});
    await asGateway(alice, () => client.check({})).result;
    expect(headers).toEqual(["explicit", null, "fn-token-for-usr_alice"]);
  });
});

describe("traceInterceptor + propagateTrace", () => {
  // Spans of their own at each hop are what an exporting process makes.
  let recording: ReturnType<typeof recordSpans>;
  beforeEach(() => {
    recording = recordSpans();
  });
  afterEach(() => recording.stop());

  it("continues the caller's trace with a client and a server span and keeps its request id", async () => {
    const { client, seen } = setup();
    const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    let responseRequestId: string | null = null;
    const { span: gateway, result } = asGateway(
      alice,
      () => client.list({}, { onHeader: (h) => (responseRequestId = h.get("x-request-id")) }),
      { traceparent: parent, requestId: "req-from-gateway" },
    );
    await result;
    const server = seen[0]!;
    // The client sent a span of its own, under the gateway's, as the parent...
    const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(server.headers.get("traceparent") ?? "");
    expect(sent?.[1]).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(sent?.[2]).not.toBe(gateway.spanId);
    // ...and the handler runs in a server span of the same trace under that one.
    expect(server.trace?.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(server.trace?.spanId).not.toBe(sent?.[2]);
    expect(server.trace?.spanId).not.toBe(gateway.spanId);
    expect(server.context?.requestId).toBe("req-from-gateway");
    expect(responseRequestId).toBe("req-from-gateway");
  });

  it("starts a trace and a request id when the caller sends none", async () => {
    const { client, seen } = setup();
    await client.check({});
    expect(seen[0]!.trace?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(seen[0]!.context?.requestId).toMatch(/^req_/);
  });

  it("keeps the context in a server stream after the interceptor has returned", async () => {
    const { client, seen } = setup();
    const parent = "00-11111111111111111111111111111111-2222222222222222-01";
    // Called outside any ALS context (see above): what the handler sees is the server's own.
    const stream = client.watch(
      {},
      { headers: { traceparent: parent }, contextValues: createContextValues().set(kPrincipal, alice) },
    );
    for await (const _ of stream) {
      /* drain */
    }
    expect(seen).toHaveLength(2);
    for (const s of seen) {
      expect(s.trace?.traceId).toBe("11111111111111111111111111111111");
      expect(s.context?.principal).toEqual(alice);
    }
  });
});

describe("propagateTrace", () => {
  it("passes the caller's trace context on unchanged when nothing is exported, and starts none", async () => {
    const { client, seen } = setup();
    const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    await asGateway(alice, () => client.list({}), { traceparent: parent }).result;
    expect(seen[0]!.headers.get("traceparent")).toBe(parent);
    expect(seen[0]!.trace).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
    });
    // Ids are the edge's to give (startEdgeSpan): a call from nowhere has none.
    await client.check({});
    expect(seen[1]!.trace).toBeUndefined();
    expect(seen[1]!.context?.requestId).toMatch(/^req_/);
  });

  it("takes a traceparent the caller set as the parent of its client span", async () => {
    const recording = recordSpans();
    onTestFinished(() => recording.stop());
    const received: string[] = [];
    const transport = createRouterTransport(
      (router) =>
        router.service(Health, {
          check: (_req, ctx) => {
            received.push(ctx.requestHeader.get("traceparent") ?? "");
            return SERVING;
          },
        }),
      { transport: { interceptors: [propagateTrace()] } },
    );
    await asGateway(alice, () =>
      createClient(Health, transport).check(
        {},
        { headers: { traceparent: "00-33333333333333333333333333333333-4444444444444444-01" } },
      ),
    ).result;
    expect(received[0]).toMatch(/^00-33333333333333333333333333333333-[0-9a-f]{16}-0[01]$/);
    expect(received[0]).not.toContain("4444444444444444");
  });
});

describe("errorInterceptor", () => {
  let client: ReturnType<typeof setup>["client"];
  let lines: LogLine[];
  beforeEach(() => {
    ({ client, lines } = setup());
  });
  const call = (service: string) => callError(asGateway(alice, () => client.check({ service })).result);

  it.each([
    ["validation", Code.InvalidArgument, "validation_failed"],
    ["not_found", Code.NotFound, "not_found"],
    ["invalid_state", Code.FailedPrecondition, "invalid_state"],
    ["conflict", Code.AlreadyExists, "already_claimed"],
    ["conflict_retryable", Code.Aborted, "conflict"],
    ["forbidden", Code.PermissionDenied, "forbidden"],
    ["safety", Code.PermissionDenied, "safety_rejected"],
    ["unauthorized", Code.Unauthenticated, "unauthorized"],
    ["rate", Code.ResourceExhausted, "rate_limit_exceeded"],
    ["unavailable", Code.Unavailable, "unavailable"],
  ])("maps %s to %s with reason %s", async (service, code, reason) => {
    const error = await call(service);
    expect(error.code).toBe(code);
    expect(errorDetailOf(error)?.reason).toBe(reason);
  });

  it("carries the message, flat metadata, field violations and details JSON", async () => {
    const validation = await call("validation");
    expect(validation.rawMessage).toBe("request is invalid");
    const v = errorDetailOf(validation)!;
    expect(v.fieldViolations.map((f) => ({ field: f.field, code: f.code, message: f.message }))).toEqual([
      { field: "constraints.budget_max_usd", code: "invalid_value", message: "must be positive" },
    ]);

    const state = errorDetailOf(await call("invalid_state"))!;
    expect(state.metadata).toEqual({ status: "draft", allowed_from: "submitted,under_review" });
    expect(errorDetailsObject(state)).toEqual({
      status: "draft",
      allowed_from: ["submitted", "under_review"],
    });

    const rate = errorDetailOf(await call("rate"))!;
    expect(rate.metadata).toEqual({ retry_after_seconds: "30", limit: "100" });
    expect(errorDetailsObject(rate)).toEqual({ retry_after_seconds: 30, limit: "100" });

    const notFound = errorDetailOf(await call("not_found"))!;
    expect(notFound.metadata).toEqual({ resource: "experiment", id: "exp_123" });
    expect(errorDetailsObject(errorDetailOf(await call("forbidden")))).toEqual({});
  });

  it("passes a downstream ConnectError through unchanged", async () => {
    const error = await call("downstream");
    expect(error.code).toBe(Code.DataLoss);
    expect(error.rawMessage).toBe("from another service");
    expect(error.metadata.get("x-kept")).toBe("yes");
    expect(errorDetailOf(error)).toBeUndefined();
  });

  it("turns anything else into Internal 'internal error', logging the original with its stack", async () => {
    const error = await call("bug");
    expect(error.code).toBe(Code.Internal);
    expect(error.rawMessage).toBe("internal error");
    expect(errorDetailOf(error)?.reason).toBe("internal");
    const wire = JSON.stringify({
      message: error.message,
      details: error.details,
      metadata: [...error.metadata],
    });
    expect(wire).not.toMatch(/SELECT|experiments|at .*\.ts/);

    const logged = lines.find((l) => l.msg === "unhandled error in rpc handler");
    expect(logged?.err.message).toContain("SELECT * FROM experiments");
    expect(logged?.err.stack).toContain("interceptors.test.ts");
    expect(logged?.procedure).toBe("grpc.health.v1.Health/Check");
    expect(logged?.request_id).toMatch(/^req_/); // logged inside the request context
  });

  it("maps errors thrown while a server stream is running", async () => {
    const drain = async (service: string) =>
      asGateway(alice, async () => {
        for await (const _ of client.watch({ service })) {
          /* drain */
        }
      }).result;
    const notFound = await callError(drain("stream_not_found"));
    expect(notFound.code).toBe(Code.NotFound);
    expect(errorDetailOf(notFound)?.metadata).toEqual({ resource: "run", id: "run_9" });

    const bug = await callError(drain("stream_bug"));
    expect(bug.code).toBe(Code.Internal);
    expect(bug.rawMessage).toBe("internal error");
    expect(lines.some((l) => l.err?.message === "boom at row 3" && l.request_id)).toBe(true);
  });
});

describe("safeTextInterceptor (in serverInterceptors)", () => {
  it("refuses a request carrying NUL with InvalidArgument naming the field, before the handler runs", async () => {
    const { client, seen } = setup();
    const error = await callError(asGateway(alice, () => client.check({ service: "a\u0000b" })).result);
    expect(error.code).toBe(Code.InvalidArgument);
    const detail = errorDetailOf(error)!;
    expect(detail.reason).toBe("validation_failed");
    expect(detail.fieldViolations.map((f) => f.field)).toEqual(["service"]);
    expect(seen).toHaveLength(0);
  });

  it("lets ordinary text through", async () => {
    const { client, seen } = setup();
    await asGateway(alice, () => client.check({ service: "ordinary ü 😀" })).result;
    expect(seen).toHaveLength(1);
  });
});
