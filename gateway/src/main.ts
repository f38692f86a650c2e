import { serve } from "@hono/node-server";
import { z } from "zod";
import {
  InternalTokenSigner,
  answerClientErrors,
  clientInterceptors,
  createBalancedConnectTransport,
  createLogger,
  createShutdown,
  exitOnConfigError,
  startTracing,
  installSignalHandlers,
  loadConfig,
  logFormatSchema,
  collectProcessMetrics,
  listenForMetrics,
  logLevelSchema,
  metricsListenerConfigSchema,
  millisecondsSchema,
  portSchema,
  rpcClientCompression,
  rpcCompressionSchema,
  serviceUrlsSchema,
  systemClock,
} from "@petri/service-kit";
import { createGateway } from "./app.js";
import { createServiceClients } from "./lib/clients.js";
import { corsOriginsSchema } from "./lib/cors.js";
import { trustProxySchema } from "./lib/source-address.js";

const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .default(fallback ? "true" : "false")
    .transform((value) => value === "true" || value === "1");
const positiveInt = z
  .string()
  .trim()
  .regex(/^\d+$/, "must be a whole number")
  .transform(Number)
  .pipe(z.number().int().positive());
const config = exitOnConfigError(() =>
  loadConfig(
    z
      .object({
        PORT: portSchema.default(8080),
        HOST: z.string().default("127.0.0.1"),
        LOG_LEVEL: logLevelSchema.default("info"),
        LOG_FORMAT: logFormatSchema.default("json"),
        PETRI_INTERNAL_JWT_PRIVATE_KEY: z.string().min(1),
        // Unset: the public key's RFC 7638 thumbprint, the key id the services derive from a PEM
        // public key. Set it only when the services are given the key as a JWK with this kid.
        PETRI_INTERNAL_JWT_KID: z.string().min(1).optional(),
        // Each: one http(s) URL or a comma-separated list; a host name stands for all its
        // addresses (a headless Service: one per ready pod), resolved again every 5 s.
        PETRI_IDENTITY_URL: serviceUrlsSchema,
        PETRI_EXPERIMENTS_URL: serviceUrlsSchema,
        PETRI_MARKETPLACE_URL: serviceUrlsSchema,
        PETRI_HYPOTHESES_URL: serviceUrlsSchema,
        PETRI_ENGINE_URL: serviceUrlsSchema,
        PETRI_CLOUDLABS_URL: serviceUrlsSchema,
        PETRI_NOTIFICATIONS_URL: serviceUrlsSchema,
        // Take the client address from the last X-Forwarded-For entry (one trusted proxy in front).
        PETRI_TRUST_PROXY: trustProxySchema,
        PETRI_MAX_BODY_BYTES: positiveInt.default(1_048_576),
        PETRI_API_KEY_CACHE_TTL_MS: millisecondsSchema.default(30_000),
        // The full reload of the revocation state behind identity's WatchRevocations stream.
        PETRI_REVOCATION_REFRESH_MS: millisecondsSchema.default(30_000),
        // Identity's variable of the same name (the access-token lifetime); published by GET /config.
        ACCESS_TOKEN_TTL_SECONDS: positiveInt.default(3_600),
        PETRI_REGISTRATION_OPEN: flag(true),
        // Exact origins (comma-separated) browsers may call the API from; empty: no CORS.
        PETRI_CORS_ORIGINS: corsOriginsSchema,
        // Compression of the calls to the services: "none" (same host or zone) or "gzip".
        PETRI_RPC_COMPRESSION: rpcCompressionSchema,
      })
      .extend(metricsListenerConfigSchema.shape),
  ),
);
const tracing = await exitOnConfigError(() => startTracing({ serviceName: "petri-gateway" }));
const logger = createLogger({
  service: "gateway",
  level: config.LOG_LEVEL,
  format: config.LOG_FORMAT,
});
const signer = await InternalTokenSigner.create(
  config.PETRI_INTERNAL_JWT_PRIVATE_KEY,
  config.PETRI_INTERNAL_JWT_KID,
);
const serviceUrls = {
  identity: config.PETRI_IDENTITY_URL,
  experiments: config.PETRI_EXPERIMENTS_URL,
  marketplace: config.PETRI_MARKETPLACE_URL,
  hypotheses: config.PETRI_HYPOTHESES_URL,
  engine: config.PETRI_ENGINE_URL,
  cloudlabs: config.PETRI_CLOUDLABS_URL,
  notifications: config.PETRI_NOTIFICATIONS_URL,
};
// Connect protocol over one persistent HTTP/2 session per replica of each service, every call
// sent to the replica with the fewest calls in flight (one session per service would pin
// this gateway to one replica); protobuf's binary encoding: Connect's default JSON costs both
// sides a reflective JSON walk of every message.
const compression = rpcClientCompression(config.PETRI_RPC_COMPRESSION);
const transports: Array<{ close(): void }> = [];
const clients = createServiceClients((service, interceptors) => {
  const transport = createBalancedConnectTransport({
    urls: serviceUrls[service],
    useBinaryFormat: true,
    interceptors,
    logger,
    ...compression,
  });
  transports.push(transport);
  return transport;
}, clientInterceptors(signer));
let draining = false;
const app = createGateway({
  clients,
  logger,
  clock: systemClock,
  maxBodyBytes: config.PETRI_MAX_BODY_BYTES,
  trustProxy: config.PETRI_TRUST_PROXY,
  apiKeyCacheTtlMs: config.PETRI_API_KEY_CACHE_TTL_MS,
  revocationRefreshMs: config.PETRI_REVOCATION_REFRESH_MS,
  accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  registrationOpen: config.PETRI_REGISTRATION_OPEN,
  corsOrigins: config.PETRI_CORS_ORIGINS,
  ready: () => !draining,
});
const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) =>
  logger.info({ port: info.port }, "gateway listening"),
);
// Node's own answers to unparseable requests (431, 400) get the error envelope, and an access line.
answerClientErrors(server, logger, { accessLog: true });
// Prometheus scrapes a port of its own, never the public API's.
collectProcessMetrics();
const metrics =
  config.PETRI_METRICS_PORT === 0
    ? undefined
    : await listenForMetrics({ port: config.PETRI_METRICS_PORT, host: config.PETRI_METRICS_HOST, logger });
installSignalHandlers(
  createShutdown({
    logger,
    timeoutMs: 25_000,
    steps: [
      {
        // /readyz answers 503 from now on, so a load balancer stops sending new requests.
        name: "stop reporting ready",
        run: () => {
          draining = true;
        },
      },
      { name: "close server", run: () => new Promise<void>((resolve) => server.close(() => resolve())) },
      { name: "close metrics listener", run: () => metrics?.close() },
      {
        name: "close service connections",
        run: () => {
          for (const transport of transports) transport.close();
        },
      },
      { name: "export buffered spans", run: () => tracing.shutdown() },
    ],
  }),
);
