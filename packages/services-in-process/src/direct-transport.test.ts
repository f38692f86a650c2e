import { create } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  type HandlerContext,
  type Interceptor,
  createClient,
  createContextKey,
  createContextValues,
  createRouterTransport,
} from "@connectrpc/connect";
import {
  Health,
  type HealthCheckRequest,
  HealthCheckRequestSchema,
  HealthCheckResponseSchema,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from "@petri/contracts/health";
import { describe, expect, it } from "vitest";
import { createDirectTransport } from "./direct-transport.js";

const kCaller = createContextKey<string | undefined>(undefined);
const SERVING = create(HealthCheckResponseSchema, { status: ServingStatus.SERVING });

interface Seen {
  request?: HealthCheckRequest;
  context?: HandlerContext;
  serverHeader?: string | null;
  serverCaller?: string;
}

function transportFor(check: (request: HealthCheckRequest, context: HandlerContext) => unknown, seen: Seen) {
  const routes = (router: ConnectRouter) => {
    router.service(Health, {
      async check(request, context) {
        seen.request = request;
        seen.context = context;
        return (await check(request, context)) as typeof SERVING;
      },
      async *watch() {
        yield SERVING;
      },
    });
  };
  const stamp: Interceptor = (next) => (req) => {
    req.header.set("x-caller", "gateway");
    return next(req);
  };
  const look: Interceptor = (next) => (req) => {
    seen.serverHeader = req.header.get("x-caller");
    seen.serverCaller = req.contextValues.get(kCaller);
    return next(req);
  };
  return createDirectTransport({
    routes,
    serverInterceptors: [look],
    clientInterceptors: [stamp],
    streams: createRouterTransport(routes, {
      router: { interceptors: [look] },
      transport: { interceptors: [stamp] },
    }),
  });
}

describe("createDirectTransport", () => {
  it("hands the caller's message object to the handler and the handler's back, encoding neither", async () => {
    const seen: Seen = {};
    const client = createClient(
      Health,
      transportFor(() => SERVING, seen),
    );
    const request = create(HealthCheckRequestSchema, { service: "petri.identity.v1.IdentityService" });
    const answer = await client.check(request);
    expect(seen.request).toBe(request);
    expect(answer).toBe(SERVING);
  });

  it("runs the caller's interceptors, then the service's with the headers but not the caller's context values", async () => {
    const seen: Seen = {};
    const client = createClient(
      Health,
      transportFor(() => SERVING, seen),
    );
    const contextValues = createContextValues().set(kCaller, "the gateway's principal");
    await client.check({ service: "" }, { contextValues });
    expect(seen.serverHeader).toBe("gateway");
    expect(seen.serverCaller).toBeUndefined();
    expect(seen.context?.requestHeader.get("x-caller")).toBe("gateway");
    expect(seen.context?.method.name).toBe("Check");
  });

  it("normalises a partial answer into a message", async () => {
    const client = createClient(
      Health,
      transportFor(() => ({ status: ServingStatus.NOT_SERVING }), {}),
    );
    const answer = await client.check({ service: "" });
    expect(answer.$typeName).toBe("grpc.health.v1.HealthCheckResponse");
    expect(answer.status).toBe(ServingStatus.NOT_SERVING);
  });

  it("passes the service's error to the caller with its code", async () => {
    const client = createClient(
      Health,
      transportFor(() => {
        throw new ConnectError("no such service", Code.NotFound);
      }, {}),
    );
    const failure = await client.check({ service: "nope" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConnectError);
    expect((failure as ConnectError).code).toBe(Code.NotFound);
    expect((failure as ConnectError).rawMessage).toBe("no such service");
  });

  it("answers Unimplemented for a method the service does not register", async () => {
    const transport = createDirectTransport({
      routes: () => {},
      serverInterceptors: [],
      clientInterceptors: [],
      streams: createRouterTransport(() => {}),
    });
    const failure = await createClient(Health, transport)
      .check({ service: "" })
      .catch((error: unknown) => error);
    expect((failure as ConnectError).code).toBe(Code.Unimplemented);
  });

  it("aborts the handler's signal when the caller gives up", async () => {
    const seen: Seen = {};
    const caller = new AbortController();
    const client = createClient(
      Health,
      transportFor(
        (_request, context) =>
          new Promise((_resolve, reject) => {
            context.signal.addEventListener("abort", () =>
              reject(new ConnectError("stopped", Code.Canceled)),
            );
            caller.abort();
          }),
        seen,
      ),
    );
    const failure = await client
      .check({ service: "" }, { signal: caller.signal })
      .catch((error: unknown) => error);
    expect((failure as ConnectError).code).toBe(Code.Canceled);
    expect(seen.context?.signal.aborted).toBe(true);
  });

  it("gives the handler the caller's deadline", async () => {
    const seen: Seen = {};
    const client = createClient(
      Health,
      transportFor(() => SERVING, seen),
    );
    await client.check({ service: "" }, { timeoutMs: 60_000 });
    const remaining = seen.context?.timeoutMs();
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThanOrEqual(60_000);
  });

  it("ends the handler's signal at the deadline with DeadlineExceeded", async () => {
    const client = createClient(
      Health,
      transportFor(
        (_request, context) =>
          new Promise((_resolve, reject) => {
            context.signal.addEventListener("abort", () => reject(context.signal.reason as Error));
          }),
        {},
      ),
    );
    const failure = await client.check({ service: "" }, { timeoutMs: 1 }).catch((error: unknown) => error);
    expect((failure as ConnectError).code).toBe(Code.DeadlineExceeded);
  });

  it("lets go of the caller's signal when the call is over", async () => {
    const seen: Seen = {};
    const caller = new AbortController();
    const client = createClient(
      Health,
      transportFor(() => SERVING, seen),
    );
    await client.check({ service: "" }, { signal: caller.signal });
    caller.abort();
    expect(seen.context?.signal.aborted).toBe(false);
  });

  it("carries streaming calls over the streams transport", async () => {
    const seen: Seen = {};
    const client = createClient(
      Health,
      transportFor(() => SERVING, seen),
    );
    const statuses: ServingStatus[] = [];
    for await (const answer of client.watch({ service: "" })) statuses.push(answer.status);
    expect(statuses).toEqual([ServingStatus.SERVING]);
    expect(seen.serverHeader).toBe("gateway");
  });
});
