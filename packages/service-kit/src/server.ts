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
import net from "node:net";
import { Code, ConnectError, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { ReadinessReport } from "./hosted-service.js";
import type { Logger } from "./logger.js";
import { type Connections, serveConnections, stopAccepting } from "./server-connections.js";
import {
  type HealthOptions,
  probeFallback,
  routesWithHealth,
  servingReadiness,
  withTimeout,
} from "./server-probes.js";

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
  health?: HealthOptions;
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

/** What the server's steps share: serving/closing state and the shutdown signal. */
interface ServerState {
  serving: boolean;
  closing: Promise<void> | undefined;
  readonly shutdown: AbortController;
}

/** The server, built but not listening: readiness, routes and probes, then the connections. */
export function buildServiceServer(options: ServiceServerOptions): ServiceServer {
  const { logger } = options;
  const state: ServerState = { serving: true, closing: undefined, shutdown: new AbortController() };
  const readiness = servingReadiness(
    options.readiness,
    () => state.serving,
    options.readinessTimeoutMs ?? 5_000,
  );
  const handler = connectNodeAdapter({
    routes: routesWithHealth(options.routes, options.health, readiness, logger),
    interceptors: options.interceptors ?? [],
    shutdownSignal: state.shutdown.signal,
    readMaxBytes: options.maxRequestBytes ?? 4 * 1024 * 1024,
    fallback: probeFallback(readiness, logger),
  });
  const connections = serveConnections({
    handler,
    logger,
    firstBytesTimeoutMs: options.firstBytesTimeoutMs ?? 10_000,
    closing: () => state.closing !== undefined,
  });
  const server = net.createServer({ noDelay: true }, connections.accept);
  server.on("error", (error) => logger.error({ err: error }, "server socket error"));
  return serverHandle(server, state, {
    logger,
    drain: () => drainServer(server, state, connections, options.drainTimeoutMs ?? 10_000, logger),
  });
}

async function drainServer(
  server: net.Server,
  state: ServerState,
  connections: Connections,
  drainTimeoutMs: number,
  logger: Logger,
): Promise<void> {
  state.serving = false;
  const stoppedAccepting = stopAccepting(server);
  state.shutdown.abort(new ConnectError("server is shutting down", Code.Unavailable));
  await connections.drain(Date.now() + drainTimeoutMs);
  await withTimeout(stoppedAccepting, 1_000, "server close").catch(() => undefined);
  logger.info("server closed");
}

function listenOn(server: net.Server, logger: Logger, port: number, host: string) {
  return new Promise<{ port: number; host: string }>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.removeListener("error", onError);
      const address = server.address() as net.AddressInfo;
      logger.info({ port: address.port, host: address.address }, "listening (h2c + http/1.1)");
      resolve({ port: address.port, host: address.address });
    });
  });
}

function serverHandle(
  server: net.Server,
  state: ServerState,
  steps: { logger: Logger; drain: () => Promise<void> },
): ServiceServer {
  return {
    server,
    shutdownSignal: state.shutdown.signal,
    get serving() {
      return state.serving;
    },
    setServing(value: boolean) {
      state.serving = value && !state.closing;
    },
    listen: (port, host = "127.0.0.1") => listenOn(server, steps.logger, port, host),
    close() {
      state.closing ??= steps.drain();
      return state.closing;
    },
  };
}
