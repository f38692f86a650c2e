import { z } from "zod";
import type { ServiceName } from "@petri/contracts";
import { type Database, createDatabase, observeDatabasePool } from "@petri/db";
import {
  InternalTokenVerifier,
  baseServiceConfigSchema,
  buildServiceServer,
  collectProcessMetrics,
  createLogger,
  createShutdown,
  exitOnConfigError,
  failpoints,
  installSignalHandlers,
  loadConfig,
  logFormatSchema,
  logLevelSchema,
  postgresUrlSchema,
  serverInterceptors,
  startTracing,
  systemClock,
} from "@petri/service-kit";
import type { HostedService, Logger } from "@petri/service-kit";
import { type EventBus, NatsEventBus, retentionFromEnv } from "@petri/events";
import { awaitMigrations } from "./await-migrations.js";
import type { ServiceDeps } from "./service-runtime.js";

export interface ClusterServiceOptions {
  service: ServiceName;
  defaultPort: number;
  create(deps: ServiceDeps): HostedService;
  /** Largest request message the server reads (buildServiceServer's default: 4 MiB). */
  maxRequestBytes?: number;
}

/** `node main.js [serve|migrate]`: serve (the default), or run the migrations and exit. */
export const CLUSTER_COMMANDS = ["serve", "migrate"] as const;

const migrateOnStartSchema = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .default("true")
  .transform((value) => value === "true" || value === "1");

/**
 * Cluster mode: one service in its own process, on PostgreSQL (its own schema) and NATS
 * JetStream, behind a Connect server. Shutdown runs in docs/architecture.md's order.
 *
 * `migrate` (first argument) brings the schema to the newest migration and exits: 0 when
 * done, 1 on failure. Kubernetes runs it as a Job before the serving replicas, which then
 * set PETRI_MIGRATE_ON_START=false: they listen at once, answer /readyz 503 until the
 * migrations are at head, and only then start their consumers and relay.
 */
export async function runClusterService(
  options: ClusterServiceOptions,
  args: readonly string[] = process.argv.slice(2),
): Promise<void> {
  const command = args[0] ?? "serve";
  if (command === "migrate") return migrateAndExit(options);
  if (command !== "serve") {
    process.stderr.write(`unknown command "${command}"; expected one of: ${CLUSTER_COMMANDS.join(", ")}\n`);
    process.exit(2);
  }
  const config = loadClusterConfig(options.defaultPort);
  const retention = exitOnConfigError(() => retentionFromEnv());
  const tracing = await exitOnConfigError(() => startTracing({ serviceName: `petri-${options.service}` }));
  const logger = createLogger({
    service: options.service,
    level: config.LOG_LEVEL,
    format: config.LOG_FORMAT,
  });
  const database = await openDatabase(options.service, config.DATABASE_URL);
  collectProcessMetrics();
  observeDatabasePool(database, options.service);
  const bus = await NatsEventBus.connect({
    servers: config.NATS_URL,
    name: `petri-${options.service}`,
    logger,
    namespace: config.PETRI_BUS_NAMESPACE,
    streamReplicas: config.PETRI_STREAM_REPLICAS,
  });
  const hosted = options.create({ database, bus, clock: systemClock, logger, failpoints, retention });
  if (config.PETRI_MIGRATE_ON_START) {
    await hosted.migrate();
    await hosted.start();
  }

  const server = await serveHosted(hosted, options, config, logger);

  const waiting = new AbortController();
  const shutdown = createShutdown({
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    steps: [
      { name: "stop waiting for migrations", run: () => waiting.abort() },
      { name: "readiness false", run: () => server.setServing(false) },
      { name: "stop consumers and relay", run: () => hosted.stop() },
      { name: "close server", run: () => server.close() },
      { name: "drain bus", run: () => bus.close() },
      { name: "close database", run: () => database.destroy() },
      { name: "export buffered spans", run: () => tracing.shutdown() },
    ],
  });
  installSignalHandlers(shutdown);

  if (!config.PETRI_MIGRATE_ON_START) {
    const atHead = await awaitMigrations({
      hosted,
      clock: systemClock,
      logger,
      intervalMs: 2_000,
      signal: waiting.signal,
    });
    if (atHead && !shutdown.started) {
      await hosted.start();
      logger.info("migrations at head; consumers and relay started");
    }
  }
}

/** The environment of a cluster service: the base settings and the cluster-only ones. */
function loadClusterConfig(defaultPort: number) {
  return exitOnConfigError(() =>
    loadConfig(
      baseServiceConfigSchema({ defaultPort }).extend({
        // Separates deployments sharing one nats-server (see BusNamespace); empty for none.
        PETRI_BUS_NAMESPACE: z
          .string()
          .regex(/^[a-z0-9_-]{0,40}$/)
          .default(""),
        // false: a separate step (`main.js migrate`, a Kubernetes Job) migrates; wait for it.
        PETRI_MIGRATE_ON_START: migrateOnStartSchema,
        // 3 with a three-node JetStream cluster (deploy/local PETRI_NATS_NODES=3); 1 otherwise.
        PETRI_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
      }),
    ),
  );
}

type ClusterConfig = ReturnType<typeof loadClusterConfig>;

/** The service's Connect server (internal tokens verified, health and readiness), listening. */
async function serveHosted(
  hosted: HostedService,
  options: ClusterServiceOptions,
  config: ClusterConfig,
  logger: Logger,
) {
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

  return server;
}

function openDatabase(service: ServiceName, url: string): Promise<Database> {
  return createDatabase({ driver: "pg", url, applicationName: `petri-${service}` });
}

/** Migrating touches only the database; anything reaching for the bus meanwhile is a bug. */
function noBus(): EventBus {
  const refuse = (): never => {
    throw new Error("the migrate command has no event bus");
  };
  return {
    kind: "nats",
    ensureStream: refuse,
    publish: refuse,
    consume: refuse,
    subscribe: refuse,
    connected: () => false,
    close: async () => undefined,
  };
}

/** Needs only DATABASE_URL (and the service's own settings, read by its main.ts). */
async function migrateAndExit(options: ClusterServiceOptions): Promise<never> {
  const config = exitOnConfigError(() =>
    loadConfig(
      z.object({
        DATABASE_URL: postgresUrlSchema,
        LOG_LEVEL: logLevelSchema.default("info"),
        LOG_FORMAT: logFormatSchema.default("json"),
      }),
    ),
  );
  const logger: Logger = createLogger({
    service: options.service,
    level: config.LOG_LEVEL,
    format: config.LOG_FORMAT,
  });
  let code = 0;
  let database: Database | undefined;
  try {
    database = await openDatabase(options.service, config.DATABASE_URL);
    const hosted = options.create({ database, bus: noBus(), clock: systemClock, logger, failpoints });
    await hosted.migrate();
    logger.info("migrations at head");
  } catch (error) {
    logger.error({ err: error }, "migration failed");
    code = 1;
  } finally {
    await database?.destroy().catch(() => undefined);
  }
  // The composition root may hold timers or sockets of its own; the command is done.
  process.exit(code);
}
