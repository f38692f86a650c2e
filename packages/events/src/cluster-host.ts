import { z } from "zod";
import type { ServiceName } from "@petri/contracts";
import { createDatabase } from "@petri/db";
import {
  InternalTokenVerifier,
  baseServiceConfigSchema,
  buildServiceServer,
  createLogger,
  createShutdown,
  exitOnConfigError,
  failpoints,
  installSignalHandlers,
  loadConfig,
  serverInterceptors,
  systemClock,
} from "@petri/service-kit";
import type { HostedService } from "@petri/service-kit";
import { NatsEventBus } from "./nats-bus.js";
import type { ServiceDeps } from "./service-runtime.js";

export interface ClusterServiceOptions {
  service: ServiceName;
  defaultPort: number;
  create(deps: ServiceDeps): HostedService;
  /** Largest request message the server reads (buildServiceServer's default: 4 MiB). */
  maxRequestBytes?: number;
}

/**
 * Cluster mode: one service in its own process, on PostgreSQL (its own schema) and NATS
 * JetStream, behind a Connect server. Shutdown runs in DESIGN.md's order.
 */
export async function runClusterService(options: ClusterServiceOptions): Promise<void> {
  const config = exitOnConfigError(() =>
    loadConfig(
      baseServiceConfigSchema({ defaultPort: options.defaultPort }).extend({
        // Separates deployments sharing one nats-server (see BusNamespace); empty for none.
        PETRI_BUS_NAMESPACE: z
          .string()
          .regex(/^[a-z0-9_-]{0,40}$/)
          .default(""),
        // 3 with a three-node JetStream cluster (deploy/local PETRI_NATS_NODES=3); 1 otherwise.
        PETRI_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
      }),
    ),
  );
  const logger = createLogger({ service: options.service, level: config.LOG_LEVEL });
  const database = await createDatabase({
    driver: "pg",
    url: config.DATABASE_URL,
    applicationName: `petri-${options.service}`,
  });
  const bus = await NatsEventBus.connect({
    servers: config.NATS_URL,
    name: `petri-${options.service}`,
    logger,
    namespace: config.PETRI_BUS_NAMESPACE,
    streamReplicas: config.PETRI_STREAM_REPLICAS,
  });
  const hosted = options.create({ database, bus, clock: systemClock, logger, failpoints });
  await hosted.migrate();
  await hosted.start();

  const verifier = await InternalTokenVerifier.create([config.PETRI_INTERNAL_JWT_PUBLIC_KEY]);
  const server = buildServiceServer({
    routes: (router) => hosted.routes(router),
    interceptors: serverInterceptors({
      logger,
      verifier,
      publicProcedures: [...(hosted.publicProcedures ?? [])],
    }),
    health: { serviceNames: [hosted.name] },
    readiness: () => hosted.readiness(),
    logger,
    ...(options.maxRequestBytes === undefined ? {} : { maxRequestBytes: options.maxRequestBytes }),
  });
  const { port } = await server.listen(config.PORT, config.HOST);
  logger.info({ port, host: config.HOST }, `${options.service} service listening`);

  const shutdown = createShutdown({
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    steps: [
      { name: "readiness false", run: () => server.setServing(false) },
      { name: "stop consumers and relay", run: () => hosted.stop() },
      { name: "close server", run: () => server.close() },
      { name: "drain bus", run: () => bus.close() },
      { name: "close database", run: () => database.destroy() },
    ],
  });
  installSignalHandlers(shutdown);
}
