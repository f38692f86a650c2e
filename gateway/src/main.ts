import { serve } from "@hono/node-server";
import { createConnectTransport } from "@connectrpc/connect-node";
import { z } from "zod";
import {
  InternalTokenSigner,
  clientInterceptors,
  createLogger,
  createShutdown,
  exitOnConfigError,
  installSignalHandlers,
  loadConfig,
  logLevelSchema,
  portSchema,
  systemClock,
} from "@petri/service-kit";
import { createGateway } from "./app.js";
import { createServiceClients } from "./lib/clients.js";

const url = z.url({ protocol: /^https?$/ });
const config = exitOnConfigError(() =>
  loadConfig(
    z.object({
      PORT: portSchema.default(8080),
      HOST: z.string().default("127.0.0.1"),
      LOG_LEVEL: logLevelSchema.default("info"),
      PETRI_INTERNAL_JWT_PRIVATE_KEY: z.string().min(1),
      PETRI_INTERNAL_JWT_KID: z.string().min(1),
      PETRI_IDENTITY_URL: url,
      PETRI_EXPERIMENTS_URL: url,
      PETRI_MARKETPLACE_URL: url,
      PETRI_HYPOTHESES_URL: url,
      PETRI_ENGINE_URL: url,
      PETRI_CLOUDLABS_URL: url,
      PETRI_NOTIFICATIONS_URL: url,
    }),
  ),
);
const logger = createLogger({ service: "gateway", level: config.LOG_LEVEL });
const signer = await InternalTokenSigner.create(
  config.PETRI_INTERNAL_JWT_PRIVATE_KEY,
  config.PETRI_INTERNAL_JWT_KID,
);
const baseUrls = {
  identity: config.PETRI_IDENTITY_URL,
  experiments: config.PETRI_EXPERIMENTS_URL,
  marketplace: config.PETRI_MARKETPLACE_URL,
  hypotheses: config.PETRI_HYPOTHESES_URL,
  engine: config.PETRI_ENGINE_URL,
  cloudlabs: config.PETRI_CLOUDLABS_URL,
  notifications: config.PETRI_NOTIFICATIONS_URL,
};
// Connect protocol over one persistent HTTP/2 session per service.
const clients = createServiceClients(
  (service, interceptors) =>
    createConnectTransport({ baseUrl: baseUrls[service], httpVersion: "2", interceptors }),
  clientInterceptors(signer),
);
const app = createGateway({ clients, logger, clock: systemClock });
const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) =>
  logger.info({ port: info.port }, "gateway listening"),
);
installSignalHandlers(
  createShutdown({
    logger,
    timeoutMs: 25_000,
    steps: [
      { name: "close server", run: () => new Promise<void>((resolve) => server.close(() => resolve())) },
    ],
  }),
);
