import net from "node:net";
import { Code, ConnectError, createClient, type CallOptions, type Transport } from "@connectrpc/connect";
import {
  Http2SessionManager,
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";
import { Health, HealthCheckResponse_ServingStatus as Status } from "@petri/contracts/health";
import { IdentityService } from "@petri/contracts/identity";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { captureLogs } from "../test/log-capture.js";
import { eventually } from "../test/manual-clock.js";
import type { ReadinessReport } from "./hosted-service.js";
import { clientInterceptors, serverInterceptors } from "./interceptors/index.js";
import {
  InternalTokenSigner,
  InternalTokenVerifier,
  generateInternalKeyPair,
  type Principal,
} from "./principal.js";
import { buildServiceServer, type ServiceServer, type ServiceServerOptions } from "./server.js";
import { createRequestContext, runWithRequestContext } from "./context.js";

const alice: Principal = { accountId: "usr_alice", role: "requester", tier: "pro" };
let signer: InternalTokenSigner;
let verifier: InternalTokenVerifier;
const running: ServiceServer[] = [];

beforeAll(async () => {
  const keys = await generateInternalKeyPair();
  signer = await InternalTokenSigner.create(keys.privateKeyPem);
  verifier = await InternalTokenVerifier.create([keys.publicKeyPem]);
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(overrides: Partial<ServiceServerOptions> = {}) {
  const logs = captureLogs();
  const state: { report: ReadinessReport } = { report: { ready: true, checks: [{ name: "db", ok: true }] } };
  const server = buildServiceServer({
    // A real service descriptor with no implementations: its calls answer Unimplemented.
    routes: (router) => router.service(IdentityService, {}),
    interceptors: serverInterceptors({ logger: logs.logger, verifier }),
    readiness: async () => state.report,
    logger: logs.logger,
    maxRequestBytes: 64 * 1024,
    ...overrides,
  });
  running.push(server);
  const { port } = await server.listen(0, "127.0.0.1");
  return { server, port, baseUrl: `http://127.0.0.1:${port}`, state, lines: logs.lines };
}

const firstUnary = IdentityService.methods.find((m) => m.methodKind === "unary")!;

/** Calls one protected IdentityService method; it has no implementation, so success is Unimplemented. */
async function callProtected(transport: Transport, options: CallOptions = {}): Promise<ConnectError> {
  const client = createClient(IdentityService, transport) as unknown as Record<
    string,
    (req: object, options?: CallOptions) => Promise<unknown>
  >;
  const error = await client[firstUnary.localName]!({}, options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConnectError);
  return error as ConnectError;
}

describe("one port, every protocol", () => {
  const transports: Array<[string, (baseUrl: string) => Transport]> = [
    [
      "gRPC over HTTP/2 (h2c)",
      (baseUrl) => createGrpcTransport({ baseUrl, interceptors: clientInterceptors(signer) }),
    ],
    [
      "Connect over HTTP/1.1",
      (baseUrl) =>
        createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors: clientInterceptors(signer) }),
    ],
    [
      "Connect over HTTP/2",
      (baseUrl) =>
        createConnectTransport({ baseUrl, httpVersion: "2", interceptors: clientInterceptors(signer) }),
    ],
    [
      "gRPC-Web over HTTP/1.1",
      (baseUrl) =>
        createGrpcWebTransport({ baseUrl, httpVersion: "1.1", interceptors: clientInterceptors(signer) }),
    ],
    [
      "gRPC-Web over HTTP/2",
      (baseUrl) =>
        createGrpcWebTransport({ baseUrl, httpVersion: "2", interceptors: clientInterceptors(signer) }),
    ],
  ];

  it.each(transports)("%s: health, readiness changes, auth and error codes", async (_name, makeTransport) => {
    const { baseUrl, state } = await start();
    const transport = makeTransport(baseUrl);
    const health = createClient(Health, transport);

    expect((await health.check({})).status).toBe(Status.SERVING);
    // The service names come from the registered routes.
    expect((await health.check({ service: "petri.identity.v1.IdentityService" })).status).toBe(
      Status.SERVING,
    );
    state.report = { ready: false, checks: [{ name: "db", ok: false, detail: "connection refused" }] };
    expect((await health.check({})).status).toBe(Status.NOT_SERVING);

    // Protected procedures: no principal -> Unauthenticated; with one -> reaches the handler.
    expect((await callProtected(transport)).code).toBe(Code.Unauthenticated);
    const context = createRequestContext({ principal: alice });
    const reached = await runWithRequestContext(context, () => callProtected(transport));
    expect(reached.code).toBe(Code.Unimplemented);
  });

  it("serves the probes over plain HTTP/1.1", async () => {
    const { baseUrl, state } = await start();
    const healthz = await fetch(`${baseUrl}/healthz`);
    expect(healthz.status).toBe(200);
    expect(await healthz.json()).toEqual({ status: "ok" });

    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: [{ name: "db", ok: true }] });

    state.report = { ready: false, checks: [{ name: "nats", ok: false, detail: "disconnected" }] };
    const notReady = await fetch(`${baseUrl}/readyz?verbose=1`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual(state.report);

    const missing = await fetch(`${baseUrl}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: "not_found", message: "not found" } });

    const head = await fetch(`${baseUrl}/healthz`, { method: "HEAD" });
    expect(head.status).toBe(200);
  });

  it("/readyz is 503 when readiness throws, without leaking the error", async () => {
    const { baseUrl, lines } = await start({
      readiness: async () => {
        throw new Error("password authentication failed for user identity");
      },
    });
    const res = await fetch(`${baseUrl}/readyz`);
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(text).not.toContain("password");
    expect(JSON.parse(text)).toMatchObject({ ready: false });
    expect(lines.some((l) => l.msg === "readiness check failed")).toBe(true);
  });

  it("answers Connect unary JSON over HTTP/1.1 (curl style)", async () => {
    const { baseUrl } = await start();
    const res = await fetch(`${baseUrl}/grpc.health.v1.Health/Check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "SERVING" });
  });

  it("refuses a request message larger than maxRequestBytes", async () => {
    const { baseUrl } = await start({ maxRequestBytes: 1024 });
    const health = createClient(Health, createGrpcTransport({ baseUrl }));
    const error = await health.check({ service: "x".repeat(4096) }).catch((e: unknown) => e);
    expect((error as ConnectError).code).toBe(Code.ResourceExhausted);
  });

  it("sorts connections whose first bytes arrive in pieces", async () => {
    const { port } = await start();
    // HTTP/1.1: one byte, then the rest of the head, then the body in a later write.
    const body = "{}";
    const http1 = await rawExchange(port, [
      "P",
      `OST /grpc.health.v1.Health/Check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      body,
    ]);
    expect(http1.toString("latin1")).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(http1.toString("latin1")).toContain('{"status":"SERVING"}');

    // HTTP/2: the preface split mid-way; the server must answer with its SETTINGS frame.
    const preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    const emptySettings = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]);
    const http2 = await rawExchange(
      port,
      [preface.slice(0, 5), Buffer.concat([Buffer.from(preface.slice(5)), emptySettings])],
      9,
    );
    expect(http2[3]).toBe(0x4); // frame type SETTINGS
  });

  it("keeps working for HTTP/1 keep-alive connections and many sequential calls", async () => {
    const { baseUrl } = await start();
    const transport = createConnectTransport({ baseUrl, httpVersion: "1.1" });
    const health = createClient(Health, transport);
    for (let i = 0; i < 20; i += 1) expect((await health.check({})).status).toBe(Status.SERVING);
  });
});

/** Writes `pieces` with pauses between them; resolves with the reply (all of it, or `minBytes`). */
function rawExchange(port: number, pieces: Array<string | Buffer>, minBytes?: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const finish = () => {
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      if (minBytes !== undefined && Buffer.concat(chunks).length >= minBytes) finish();
    });
    socket.on("end", finish);
    socket.on("error", reject);
    socket.on("connect", async () => {
      for (const piece of pieces) {
        socket.write(piece);
        await new Promise((r) => setTimeout(r, 15));
      }
    });
  });
}

describe("HTTP/1 parser errors", () => {
  it("a request with headers over Node's limit is 431 with the JSON error envelope", async () => {
    const { port } = await start();
    const reply = (
      await rawExchange(port, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`])
    ).toString("utf8");
    expect(reply.startsWith("HTTP/1.1 431 ")).toBe(true);
    expect(reply).toMatch(/\r\nconnection: close\r\n/i);
    const body = JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4)) as { error: { code: string } };
    expect(body.error.code).toBe("request_header_fields_too_large");
  });
});

describe("close()", () => {
  it("finishes with a live HTTP/2 client session (G12), and refuses new connections after", async () => {
    const { server, baseUrl, lines } = await start();
    const sessionManager = new Http2SessionManager(baseUrl);
    const health = createClient(Health, createGrpcTransport({ baseUrl, sessionManager }));
    expect((await health.check({})).status).toBe(Status.SERVING);
    expect(["open", "idle"]).toContain(sessionManager.state()); // the session is still open

    await server.close();
    expect(server.server.listening).toBe(false);
    // Closed gracefully (GOAWAY), not by the drain deadline's forced cut.
    expect(lines.some((l) => l.msg === "drain timed out; closing connections forcibly")).toBe(false);
    const after = await fetch(`${baseUrl}/healthz`).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(Error);
    sessionManager.abort();
  });

  it("closes HTTP/1 keep-alive connections", async () => {
    // Clients drop idle sockets after about 4 s themselves; a shorter drain budget makes
    // this test fail if the server does not close them.
    const { server, baseUrl, lines } = await start({ drainTimeoutMs: 2_000 });
    const health = createClient(Health, createConnectTransport({ baseUrl, httpVersion: "1.1" }));
    await health.check({});
    await fetch(`${baseUrl}/healthz`).then((r) => r.text()); // fetch keeps its socket alive too
    await server.close();
    expect(server.server.listening).toBe(false);
    expect(lines.some((l) => l.msg === "drain timed out; closing connections forcibly")).toBe(false);
  });

  it("lets an in-flight request finish before resolving", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered = false;
    const { server, baseUrl } = await start({
      readiness: async () => {
        entered = true;
        await gate;
        return { ready: true, checks: [] };
      },
    });
    const health = createClient(Health, createGrpcTransport({ baseUrl }));
    const inFlight = health.check({});
    await eventually(() => entered);

    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    expect(server.shutdownSignal.aborted).toBe(true);

    release();
    expect((await inFlight).status).toBe(Status.SERVING);
    await closing;
    expect(closed).toBe(true);
  });

  it("ends a running Watch stream (handlers see the shutdown signal)", async () => {
    const { server, baseUrl } = await start();
    const health = createClient(Health, createGrpcTransport({ baseUrl }));
    const received: Status[] = [];
    const watching = (async () => {
      for await (const m of health.watch({})) received.push(m.status);
      return "ended";
    })().catch((e: unknown) => e);
    await eventually(() => received.length === 1);
    await server.close();
    expect(await watching).toBe("ended");
  });

  it("cuts connections after drainTimeoutMs when a request never finishes", async () => {
    let asked = false;
    const { server, baseUrl, lines } = await start({
      drainTimeoutMs: 100,
      readiness: () => {
        asked = true;
        return new Promise<ReadinessReport>(() => undefined);
      },
      readinessTimeoutMs: 60_000,
    });
    const health = createClient(Health, createGrpcTransport({ baseUrl }));
    const stuck = health.check({}).catch((e: unknown) => e);
    // The request must be in the handler before the close, however slow the machine.
    await eventually(() => asked);
    await server.close();
    expect(lines.some((l) => l.msg === "drain timed out; closing connections forcibly")).toBe(true);
    expect(await stuck).toBeInstanceOf(ConnectError);
  });

  it("is idempotent, and setServing(false) turns readiness off first", async () => {
    const { server, baseUrl } = await start();
    server.setServing(false);
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(503);
    const health = createClient(Health, createConnectTransport({ baseUrl, httpVersion: "1.1" }));
    expect((await health.check({})).status).toBe(Status.NOT_SERVING);
    const first = server.close();
    expect(server.close()).toBe(first);
    await first;
  });
});
