/**
 * What a service's port answers besides Connect: the Kubernetes probes (/healthz, /readyz),
 * the Prometheus scrape (/metrics), 404 for anything else; and grpc.health.v1 beside the
 * service's own routes. Readiness is bounded in time and false once shutdown began.
 */
import type { ConnectRouter } from "@connectrpc/connect";
import type { ConnectNodeAdapterOptions } from "@connectrpc/connect-node";
import { Health } from "@petri/contracts/health";
import type { Clock } from "./clock.js";
import { healthRoutes } from "./health.js";
import type { ReadinessReport } from "./hosted-service.js";
import type { Logger } from "./logger.js";
import { serveMetrics } from "./metrics-server.js";

export type NodeHandlerFn = NonNullable<ConnectNodeAdapterOptions["fallback"]>;

export type HealthOptions = false | { serviceNames?: string[]; clock?: Clock; pollIntervalMs?: number };

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

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const NOT_SERVING: ReadinessReport = {
  ready: false,
  checks: [{ name: "server", ok: false, detail: "shutting down" }],
};

/** The dependencies' readiness while serving, bounded by `timeoutMs`; "shutting down" after. */
export function servingReadiness(
  dependencies: () => Promise<ReadinessReport>,
  serving: () => boolean,
  timeoutMs: number,
): () => Promise<ReadinessReport> {
  return async () => (serving() ? withTimeout(dependencies(), timeoutMs, "readiness check") : NOT_SERVING);
}

/**
 * The service's routes plus grpc.health.v1, which answers for "" and, unless told which,
 * for every service the routes registered.
 */
export function routesWithHealth(
  routes: (router: ConnectRouter) => void,
  health: HealthOptions | undefined,
  readiness: () => Promise<ReadinessReport>,
  logger: Logger,
): (router: ConnectRouter) => void {
  return (router) => {
    routes(router);
    if (health === false) return;
    const registered = router.handlers
      .map((h) => h.service.typeName)
      .filter((name) => name !== Health.typeName);
    const serviceNames = health?.serviceNames ?? [...new Set(registered)];
    healthRoutes(router, readiness, serviceNames, {
      logger,
      ...(health?.clock ? { clock: health.clock } : {}),
      ...(health?.pollIntervalMs ? { pollIntervalMs: health.pollIntervalMs } : {}),
    });
  };
}

/** Answers the HTTP requests Connect does not route: probes, metrics, else 404. */
export function probeFallback(readiness: () => Promise<ReadinessReport>, logger: Logger): NodeHandlerFn {
  return (req, res) => {
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
}
