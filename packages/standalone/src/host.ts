import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import { type Database, createDatabase, observeDatabasePool } from "@petri/db";
import type { RetentionSettings } from "@petri/events";
import { createGateway, createServiceClients } from "@petri/gateway";
import {
  type Clock,
  type Failpoints,
  type HostedService,
  type Logger,
  answerClientErrors,
  collectProcessMetrics,
  freePort,
  listenForMetrics,
} from "@petri/service-kit";
import { startServicesInProcess } from "@petri/services-in-process";
import { embeddedClusterPaths } from "./embedded-cluster.js";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded-postgres.js";
import type { CloudLabsServiceOptions } from "@petri/cloud-labs";
import type { EngineServiceOptions } from "@petri/engine";
import type { WebhookUrlCheckOptions } from "@petri/experiments";
import type { IdentityServiceOptions } from "@petri/identity";
import type { NotificationsServiceOptions } from "@petri/notifications";

/**
 * Which database standalone runs on:
 * - `embedded` (default): a PostgreSQL server of its own, started and stopped with the host, its
 *   cluster in <dataDir>/postgres (a temporary directory, removed on stop, for "memory://");
 * - `url`: an existing PostgreSQL database (one schema per service, as in the embedded one);
 * - `pglite`: PGlite inside this process, in <dataDir>/pgdata (opt-in).
 */
export type StandaloneDatabase = { kind: "embedded" } | { kind: "url"; url: string } | { kind: "pglite" };

/**
 * The one pool the seven services share. Two cores run the whole host; more connections than
 * that mostly queue inside PostgreSQL, while too few make a slow transaction (a results
 * submission) hold up unrelated reads. 20 stays well under the embedded server's limit.
 */
export const STANDALONE_POOL_SIZE = 20;

export interface StandaloneOptions {
  /** The data directory (the embedded database in <dataDir>/postgres, result files), or "memory://". */
  dataDir: string;
  /** The database (default: the embedded PostgreSQL server). */
  database?: StandaloneDatabase;
  /** Identity's secrets and settings (see @petri/identity standaloneIdentityOptions). */
  identity: IdentityServiceOptions;
  /** Notifications' settings (SMTP, KEK; see @petri/notifications notificationsOptionsFromConfig). */
  notifications?: NotificationsServiceOptions;
  /**
   * Experiments' settings: how webhook URLs are checked at registration (default: the
   * operating system's resolver and no allowlist; the allowlist comes from
   * PETRI_WEBHOOK_TEST_ALLOWLIST, see @petri/service-kit webhookTestAllowlistConfigSchema).
   */
  experiments?: { webhookUrlCheck?: WebhookUrlCheckOptions };
  /** The engine's run limits and optional LLM and literature providers (see @petri/engine engineOptionsFromEnv). */
  engine?: EngineServiceOptions;
  /** Cloud labs' sandbox timing, polling and HTTP lab adapter (see @petri/cloud-labs cloudLabsOptionsFromEnv). */
  cloudlabs?: CloudLabsServiceOptions;
  /**
   * The gateway's settings: origins allowed cross-origin access (PETRI_CORS_ORIGINS), and
   * whether the client address is the last X-Forwarded-For entry (PETRI_TRUST_PROXY).
   */
  gateway?: { corsOrigins?: readonly string[]; trustProxy?: boolean };
  /** How long the messaging tables keep rows (see @petri/events retentionFromEnv; default DEFAULT_RETENTION). */
  retention?: RetentionSettings;
  port: number;
  host: string;
  /**
   * Where Prometheus scrapes GET /metrics (every service's series, one registry for the
   * process), apart from the public port; port 0 picks a free one. Absent: no metrics listener.
   */
  metrics?: { port: number; host: string };
  logger: Logger;
  clock: Clock;
  failpoints: Failpoints;
}

export interface Standalone {
  url: string;
  port: number;
  services: HostedService[];
  /** The metrics listener's URL (http://host:port/metrics), when options.metrics asked for one. */
  metricsUrl?: string;
  /** The services' database (tests read projections through it). */
  database: Database;
  /** The embedded PostgreSQL server's wrapper process, when standalone runs one. */
  databaseServerPid?: number;
  stop(): Promise<void>;
}

/**
 * Standalone mode: the gateway and every service in ONE process, on one database (a schema per
 * service; by default an embedded PostgreSQL server this host starts and stops) and the
 * in-process bus. Calls still cross the Connect contract: each service is
 * reached through a router transport that serialises every message and runs the same
 * interceptors as the cluster's HTTP servers.
 */
export async function startStandalone(options: StandaloneOptions): Promise<Standalone> {
  const { logger } = options;
  // What startup has set up, undone in reverse order by stop() or by a failed startup (so that
  // no embedded database server outlives a host that did not come up).
  const teardown: Array<() => Promise<void>> = [];
  const undo = async () => {
    for (const step of teardown.reverse()) await step();
  };
  try {
    return await startHost(options, teardown, undo);
  } catch (error) {
    await undo().catch((cleanupError: unknown) =>
      logger.warn({ err: cleanupError }, "cleaning up after a failed start failed"),
    );
    throw error;
  }
}

async function startHost(
  options: StandaloneOptions,
  teardown: Array<() => Promise<void>>,
  undo: () => Promise<void>,
): Promise<Standalone> {
  const { logger, clock } = options;
  const inMemory = options.dataDir === "memory://";
  // Memory mode keeps its files (result files, the embedded cluster) in a temporary directory, removed on stop.
  const scratchDir = inMemory ? await mkdtemp(path.join(tmpdir(), "petri-standalone-")) : undefined;
  if (scratchDir) teardown.push(() => rm(scratchDir, { recursive: true, force: true }));
  const filesDir = scratchDir ?? options.dataDir;
  const { database, server: databaseServer } = await openDatabase(
    options.database ?? { kind: "embedded" },
    filesDir,
    inMemory,
    logger,
    teardown,
  );
  const stopPoolMetrics = observeDatabasePool(database, "standalone");
  teardown.push(async () => stopPoolMetrics());
  const inProcess = await startServicesInProcess({
    ...options,
    database,
    blobDir: path.join(filesDir, "blobs"),
  });
  teardown.push(() => inProcess.stop());
  const { services } = inProcess;
  const clients = createServiceClients(inProcess.transportFor, inProcess.clientInterceptors);

  let stopping = false;
  const gateway = createGateway({
    clients,
    logger,
    clock,
    ...(options.identity.accessTokenTtlSeconds === undefined
      ? {}
      : { accessTokenTtlSeconds: options.identity.accessTokenTtlSeconds }),
    ready: () => !stopping,
    ...(options.gateway?.corsOrigins ? { corsOrigins: options.gateway.corsOrigins } : {}),
    ...(options.gateway?.trustProxy !== undefined ? { trustProxy: options.gateway.trustProxy } : {}),
  });
  const { port, url } = await listenGateway(gateway, options, logger, teardown);
  collectProcessMetrics();
  const metrics = options.metrics && (await listenForMetrics({ ...options.metrics, logger }));
  if (metrics) teardown.push(() => metrics.close());

  let stopped = false;
  return {
    url,
    port,
    services,
    ...(metrics ? { metricsUrl: metrics.url } : {}),
    database,
    ...(databaseServer ? { databaseServerPid: databaseServer.pid } : {}),
    async stop() {
      if (stopped) return;
      stopped = true;
      stopping = true;
      await undo();
    },
  };
}

/** Serves the gateway on the host's port (a free one for 0) until teardown. */
async function listenGateway(
  gateway: { fetch: Parameters<typeof serve>[0]["fetch"] },
  options: StandaloneOptions,
  logger: Logger,
  teardown: Array<() => Promise<void>>,
): Promise<{ port: number; url: string }> {
  const port = options.port === 0 ? await freePort(options.host) : options.port;
  const server = serve({ fetch: gateway.fetch, port, hostname: options.host });
  // Node's own answers to unparseable requests (431, 400) get the error envelope, and an access line.
  answerClientErrors(server, logger.child({ service: "gateway" }), { accessLog: true });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", () => resolve());
    server.once("error", reject);
  });
  teardown.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://${options.host}:${port}`;
  return { port, url };
}

async function openDatabase(
  choice: StandaloneDatabase,
  filesDir: string,
  inMemory: boolean,
  logger: Logger,
  teardown: Array<() => Promise<void>>,
): Promise<{ database: Database; server?: EmbeddedPostgres }> {
  const pool = {
    poolMax: STANDALONE_POOL_SIZE,
    applicationName: "petri-standalone",
    onIdleClientError: (error: Error) => logger.warn({ err: error }, "an idle database connection failed"),
  };
  switch (choice.kind) {
    case "pglite": {
      const database = await createDatabase({
        driver: "pglite",
        dataDir: inMemory ? "memory://" : path.join(filesDir, "pgdata"),
      });
      teardown.push(() => database.destroy());
      return { database };
    }
    case "url": {
      const database = await createDatabase({ driver: "pg", url: choice.url, ...pool });
      teardown.push(() => database.destroy());
      return { database };
    }
    case "embedded": {
      const server = await startEmbeddedPostgres({ ...embeddedClusterPaths(filesDir), logger });
      teardown.push(() => server.stop());
      const database = await createDatabase({ driver: "pg", url: server.url, ...pool });
      teardown.push(() => database.destroy());
      return { database, server };
    }
  }
}
