/**
 * A service's network face: ONE TCP port that speaks
 *   - HTTP/2 cleartext with prior knowledge (h2c): gRPC, gRPC-Web and Connect, which is how
 *     services call each other in cluster mode;
 *   - HTTP/1.1: Connect and gRPC-Web (gRPC itself needs HTTP/2 trailers), plus /healthz and
 *     /readyz, because Kubernetes httpGet probes speak HTTP/1.1 only, and /metrics (Prometheus;
 *     the port is internal, never behind the public gateway).
 * Node has no h2c server that also accepts HTTP/1.1 (allowHTTP1 relies on TLS ALPN), so a
 * plain net.Server accepts each connection, looks at its first bytes, and hands the socket
 * to an http2 or an http server that never listen themselves. Both run the same Connect
 * handler.
 *
 * build (this function) is separate from listen(), so tests can start it on port 0.
 */
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { Code, ConnectError, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter, type ConnectNodeAdapterOptions } from "@connectrpc/connect-node";
import { Health } from "@petri/contracts/health";
import { answerClientErrors } from "./client-errors.js";
import type { Clock } from "./clock.js";
import { healthRoutes } from "./health.js";
import type { ReadinessReport } from "./hosted-service.js";
import type { Logger } from "./logger.js";
import { serveMetrics } from "./metrics-server.js";

type NodeHandlerFn = NonNullable<ConnectNodeAdapterOptions["fallback"]>;

/** What every HTTP/2 client sends first (RFC 9113 section 3.4). */
const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

export interface ServiceServerOptions {
  /** The service's Connect handlers. grpc.health.v1 is added unless `health` is false. */
  routes: (router: ConnectRouter) => void;
  /** Server interceptors, outermost first (see serverInterceptors()). */
  interceptors?: Interceptor[];
  /** Dependencies' readiness; drives /readyz and grpc.health.v1. */
  readiness: () => Promise<ReadinessReport>;
  logger: Logger;
  /** Largest accepted request message (Connect readMaxBytes). Default 4 MiB. */
  maxRequestBytes?: number;
  /**
   * grpc.health.v1 options. By default the Health service is registered and answers for ""
   * and for every service the routes registered. `false` leaves it out.
   */
  health?: false | { serviceNames?: string[]; clock?: Clock; pollIntervalMs?: number };
  /** close() waits this long for in-flight requests before cutting connections. Default 10 s. */
  drainTimeoutMs?: number;
  /** /readyz answers 503 if readiness takes longer than this. Default 5 s. */
  readinessTimeoutMs?: number;
  /** A connection that sends nothing for this long is dropped. Default 10 s. */
  firstBytesTimeoutMs?: number;
}

export interface ServiceServer {
  /** The listening socket server (the http/http2 servers behind it never listen). */
  readonly server: net.Server;
  listen(port: number, host?: string): Promise<{ port: number; host: string }>;
  /**
   * Stops accepting, aborts `shutdownSignal` (handlers see ctx.signal), lets in-flight
   * requests finish for up to drainTimeoutMs, closes HTTP/2 sessions and HTTP/1 keep-alive
   * connections, then resolves. Calling it again returns the same promise.
   */
  close(): Promise<void>;
  /** Aborted when close() starts; passed to Connect as its shutdownSignal. */
  readonly shutdownSignal: AbortSignal;
  /**
   * Readiness off (or on) regardless of dependencies: the first shutdown step, so load
   * balancers stop routing here before the server closes.
   */
  setServing(serving: boolean): void;
  readonly serving: boolean;
}

function jsonResponse(
  res: Parameters<NodeHandlerFn>[1],
  status: number,
  body: unknown,
  headOnly = false,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  if (headOnly) res.end();
  else res.end(text);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function buildServiceServer(options: ServiceServerOptions): ServiceServer {
  const { logger } = options;
  const drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
  const readinessTimeoutMs = options.readinessTimeoutMs ?? 5_000;
  const firstBytesTimeoutMs = options.firstBytesTimeoutMs ?? 10_000;
  const shutdown = new AbortController();
  let serving = true;
  let closing: Promise<void> | undefined;

  const notServing: ReadinessReport = {
    ready: false,
    checks: [{ name: "server", ok: false, detail: "shutting down" }],
  };
  const readiness = async (): Promise<ReadinessReport> =>
    serving ? withTimeout(options.readiness(), readinessTimeoutMs, "readiness check") : notServing;

  const routes = (router: ConnectRouter) => {
    options.routes(router);
    if (options.health === false) return;
    const registered = router.handlers
      .map((h) => h.service.typeName)
      .filter((name) => name !== Health.typeName);
    const serviceNames = options.health?.serviceNames ?? [...new Set(registered)];
    healthRoutes(router, readiness, serviceNames, {
      logger,
      ...(options.health?.clock ? { clock: options.health.clock } : {}),
      ...(options.health?.pollIntervalMs ? { pollIntervalMs: options.health.pollIntervalMs } : {}),
    });
  };

  const fallback: NodeHandlerFn = (req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    const method = req.method ?? "GET";
    const probe = method === "GET" || method === "HEAD";
    if (probe && path === "/healthz") {
      // Liveness: answering at all proves the event loop turns. Dependencies are /readyz's job,
      // so a database outage does not make Kubernetes restart every pod.
      jsonResponse(res, 200, { status: "ok" }, method === "HEAD");
      return;
    }
    if (probe && path === "/readyz") {
      readiness().then(
        (report) => jsonResponse(res, report.ready ? 200 : 503, report, method === "HEAD"),
        (error: unknown) => {
          logger.warn({ err: error }, "readiness check failed");
          const report: ReadinessReport = {
            ready: false,
            checks: [{ name: "readiness", ok: false, detail: "readiness check failed" }],
          };
          jsonResponse(res, 503, report, method === "HEAD");
        },
      );
      return;
    }
    if (probe && path === "/metrics") {
      serveMetrics(res, method === "HEAD", logger);
      return;
    }
    jsonResponse(res, 404, { error: { code: "not_found", message: "not found" } }, method === "HEAD");
  };

  const handler = connectNodeAdapter({
    routes,
    interceptors: options.interceptors ?? [],
    shutdownSignal: shutdown.signal,
    readMaxBytes: options.maxRequestBytes ?? 4 * 1024 * 1024,
    fallback,
  });

  const http1 = http.createServer(handler);
  // The HTTP/1 server never listens, but its 'listening' hook is what starts Node's connection
  // tracking: headersTimeout/requestTimeout (slow-client protection) and closeIdleConnections().
  http1.emit("listening");
  http1.prependListener("request", (_req, res) => {
    // While closing, finish the request but do not keep the connection alive. (Prepended: the
    // handler may write headers synchronously.)
    if (closing) res.setHeader("connection", "close");
  });
  answerClientErrors(http1, logger);

  const http2Server = http2.createServer(handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  http2Server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    session.on("error", (error) => logger.debug({ err: error }, "http/2 session error"));
    // A connection accepted just before close() still gets a GOAWAY.
    if (closing) session.close();
  });

  const sockets = new Set<net.Socket>();
  const sniffing = new Set<net.Socket>();

  function accept(socket: net.Socket): void {
    sockets.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      sniffing.delete(socket);
    });
    // A reset connection must not crash the process, whichever server owns it by then.
    socket.on("error", (error) => logger.debug({ err: error }, "connection error"));
    if (closing) {
      socket.destroy();
      return;
    }
    sniffing.add(socket);
    socket.setTimeout(firstBytesTimeoutMs, () => socket.destroy());
    let received: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
      const compared = Math.min(received.length, HTTP2_PREFACE.length);
      const prefaceSoFar = received.subarray(0, compared).equals(HTTP2_PREFACE.subarray(0, compared));
      if (prefaceSoFar && received.length < HTTP2_PREFACE.length) return; // need more bytes to decide
      socket.removeListener("data", onData);
      socket.setTimeout(0);
      sniffing.delete(socket);
      if (prefaceSoFar) {
        // Http2Session reads whatever is already buffered on the socket before its native
        // reader takes over, so putting the bytes back is enough.
        socket.pause();
        socket.unshift(received);
        http2Server.emit("connection", socket);
      } else {
        // The HTTP/1 parser reads the socket natively from here on; the bytes we already took
        // are fed to it directly, before any later read can arrive.
        http1.emit("connection", socket);
        socket.emit("data", received);
      }
    };
    socket.on("data", onData);
  }

  const server = net.createServer({ noDelay: true }, accept);
  server.on("error", (error) => logger.error({ err: error }, "server socket error"));

  async function drain(): Promise<void> {
    serving = false;
    const stoppedAccepting = new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
    shutdown.abort(new ConnectError("server is shutting down", Code.Unavailable));
    // G12: an http2 server never finishes closing while client sessions live. close() sends
    // GOAWAY and ends the session once its open streams are done.
    for (const session of sessions) session.close();
    for (const socket of sniffing) socket.destroy();
    const deadline = Date.now() + drainTimeoutMs;
    while (sockets.size > 0 && Date.now() < deadline) {
      // Keep-alive connections become idle as their last response completes.
      http1.closeIdleConnections();
      await delay(20);
    }
    if (sockets.size > 0) {
      logger.warn({ connections: sockets.size }, "drain timed out; closing connections forcibly");
      for (const session of sessions) session.destroy();
      http1.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    }
    http1.close(); // stops its connection-checking timer
    await withTimeout(stoppedAccepting, 1_000, "server close").catch(() => undefined);
    logger.info("server closed");
  }

  return {
    server,
    shutdownSignal: shutdown.signal,
    get serving() {
      return serving;
    },
    setServing(value: boolean) {
      serving = value && !closing;
    },
    listen(port: number, host = "127.0.0.1") {
      return new Promise((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        server.once("error", onError);
        server.listen(port, host, () => {
          server.removeListener("error", onError);
          const address = server.address() as net.AddressInfo;
          logger.info({ port: address.port, host: address.address }, "listening (h2c + http/1.1)");
          resolve({ port: address.port, host: address.address });
        });
      });
    },
    close() {
      closing ??= drain();
      return closing;
    },
  };
}
