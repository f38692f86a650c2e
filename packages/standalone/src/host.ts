import { createRouterTransport } from "@connectrpc/connect";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import type { ServiceName } from "@petri/contracts";
import { type Database, createDatabase } from "@petri/db";
import { InProcessEventBus, type ServiceDeps } from "@petri/events";
import { createGateway, createServiceClients } from "@petri/gateway";
import {
  AddressAllowlist,
  type Clock,
  type Failpoints,
  type HostedService,
  InternalTokenSigner,
  InternalTokenVerifier,
  type Logger,
  answerClientErrors,
  clientInterceptors,
  generateInternalKeyPair,
  healthRoutes,
  serverInterceptors,
} from "@petri/service-kit";
import { type CloudLabsServiceOptions, createCloudLabsService } from "@petri/cloud-labs";
import { type EngineServiceOptions, createEngineService } from "@petri/engine";
import { type WebhookUrlCheckOptions, createExperimentsService } from "@petri/experiments";
import { createHypothesesService } from "@petri/hypotheses";
import { type IdentityServiceOptions, createIdentityService } from "@petri/identity";
import { createMarketplaceService } from "@petri/marketplace";
import { type NotificationsServiceOptions, createNotificationsService } from "@petri/notifications";

/** Where the services keep files outside the database. */
interface StandaloneStorage {
  /** The experiments service's result files: <dataDir>/blobs, or a temporary directory in memory mode. */
  blobDir: string;
}

type ServiceFactory = (
  deps: ServiceDeps,
  options: StandaloneOptions,
  storage: StandaloneStorage,
) => HostedService;

const SERVICE_FACTORIES: Record<ServiceName, ServiceFactory> = {
  identity: (deps, options) => createIdentityService(deps, options.identity),
  experiments: (deps, options, storage) =>
    createExperimentsService(deps, {
      blobStore: { kind: "fs", dir: storage.blobDir },
      webhookUrlCheck: options.experiments?.webhookUrlCheck ?? { allowlist: AddressAllowlist.empty },
    }),
  marketplace: createMarketplaceService,
  hypotheses: createHypothesesService,
  engine: (deps, options) => createEngineService(deps, options.engine),
  cloudlabs: (deps, options) => createCloudLabsService(deps, options.cloudlabs),
  notifications: (deps, options) =>
    createNotificationsService(deps, { dataDir: options.dataDir, ...options.notifications }),
};

export interface StandaloneOptions {
  /** The data directory (PGlite's files go in <dataDir>/pgdata), or "memory://". */
  dataDir: string;
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
  port: number;
  host: string;
  logger: Logger;
  clock: Clock;
  failpoints: Failpoints;
}

export interface Standalone {
  url: string;
  port: number;
  services: HostedService[];
  /** The embedded database (tests read projections through it). */
  database: Database;
  stop(): Promise<void>;
}

/**
 * Standalone mode: the gateway and every service in ONE process, on PGlite (a schema per
 * service) and the in-process bus. Calls still cross the Connect contract: each service is
 * reached through a router transport that serialises every message and runs the same
 * interceptors as the cluster's HTTP servers.
 */
export async function startStandalone(options: StandaloneOptions): Promise<Standalone> {
  const { logger, clock, failpoints } = options;
  const inMemory = options.dataDir === "memory://";
  const pgData = inMemory ? "memory://" : path.join(options.dataDir, "pgdata");
  // Result files need a directory even in memory mode: a temporary one, removed on stop.
  const storage: StandaloneStorage = {
    blobDir: inMemory
      ? await mkdtemp(path.join(tmpdir(), "petri-blobs-"))
      : path.join(options.dataDir, "blobs"),
  };
  const database = await createDatabase({ driver: "pglite", dataDir: pgData });
  const bus = await InProcessEventBus.create({ db: database, clock, logger });
  const deps: ServiceDeps = { database, bus, clock, logger, failpoints };
  const services = (Object.keys(SERVICE_FACTORIES) as ServiceName[]).map((name) =>
    SERVICE_FACTORIES[name](deps, options, storage),
  );
  for (const service of services) await service.migrate();
  for (const service of services) await service.start();

  // The internal principal keys live only in this process's memory.
  const keys = await generateInternalKeyPair();
  const verifier = await InternalTokenVerifier.create([keys.publicKeyPem]);
  const signer = await InternalTokenSigner.create(keys.privateKeyPem, keys.kid);
  const byName = new Map(services.map((service) => [service.name, service]));
  const clients = createServiceClients((name, interceptors) => {
    const service = byName.get(name);
    if (!service) throw new Error(`no service ${name} in this process`);
    return createRouterTransport(
      (router) => {
        service.routes(router);
        healthRoutes(router, () => service.readiness(), [service.name]);
      },
      {
        router: {
          interceptors: serverInterceptors({
            logger,
            verifier,
            publicProcedures: [...(service.publicProcedures ?? [])],
          }),
        },
        transport: { interceptors },
      },
    );
  }, clientInterceptors(signer));

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
  const port = options.port === 0 ? await freePort(options.host) : options.port;
  const server = serve({ fetch: gateway.fetch, port, hostname: options.host });
  // Node's own answers to unparseable requests (431, 400) get the error envelope too.
  answerClientErrors(server, logger);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", () => resolve());
    server.once("error", reject);
  });
  const url = `http://${options.host}:${port}`;

  let stopped = false;
  return {
    url,
    port,
    services,
    database,
    async stop() {
      if (stopped) return;
      stopped = true;
      stopping = true;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const service of services) await service.stop();
      await bus.close();
      await database.destroy();
      if (inMemory) await rm(storage.blobDir, { recursive: true, force: true });
    },
  };
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
