/**
 * Serving the process's metrics: GET /metrics on a service's internal server (server.ts), or
 * a listener of its own for the processes whose main port is public (the gateway, standalone).
 */
import http from "node:http";
import type net from "node:net";
import type { Logger } from "./logger.js";
import { METRICS_CONTENT_TYPE, renderMetrics } from "./metrics.js";
import { portSchema } from "./config.js";
import { z } from "zod";

/** What serveMetrics writes to: an HTTP/1.1 or HTTP/2 compatibility response. */
export interface MetricsResponse {
  writeHead(status: number, headers: Record<string, string | number>): unknown;
  end(): unknown;
  end(body: string): unknown;
}

/** Answers one scrape with the exposition of this process's registry. */
export function serveMetrics(res: MetricsResponse, headOnly: boolean, logger: Logger): void {
  renderMetrics().then(
    (text) => {
      res.writeHead(200, {
        "content-type": METRICS_CONTENT_TYPE,
        "content-length": Buffer.byteLength(text),
        "cache-control": "no-store",
      });
      if (headOnly) res.end();
      else res.end(text);
    },
    (error: unknown) => {
      logger.warn({ err: error }, "rendering metrics failed");
      res.writeHead(500, { "content-type": "text/plain" });
      res.end("metrics unavailable\n");
    },
  );
}

/**
 * PETRI_METRICS_PORT: where the gateway and standalone serve /metrics, apart from the public
 * API (9464 by default, the port Prometheus' registry of exporter ports gives OpenTelemetry's
 * Prometheus exporter; 0 turns the listener off). PETRI_METRICS_HOST: its address (default
 * 127.0.0.1, like HOST; 0.0.0.0 in a container that Prometheus scrapes).
 */
export const metricsListenerConfigSchema = z.object({
  PETRI_METRICS_PORT: portSchema.default(9464),
  PETRI_METRICS_HOST: z.string().min(1).default("127.0.0.1"),
});

export interface MetricsListener {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/** A plain HTTP/1.1 listener answering GET|HEAD /metrics (everything else: 404). */
export async function listenForMetrics(options: {
  port: number;
  host: string;
  logger: Logger;
}): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    const method = req.method ?? "GET";
    if ((method === "GET" || method === "HEAD") && path === "/metrics") {
      serveMetrics(res, method === "HEAD", options.logger);
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.removeListener("error", reject);
      resolve();
    });
  });
  const address = server.address() as net.AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}/metrics`;
  options.logger.info({ port: address.port, host: address.address }, "metrics listening");
  return {
    port: address.port,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
