import {
  type ConnectRouter,
  type Interceptor,
  type Transport,
  createRouterTransport,
} from "@connectrpc/connect";
import type { ServiceName } from "@petri/contracts";
import { type Database, type DatabaseConfig, createDatabase } from "@petri/db";
import { InProcessEventBus, type RetentionSettings } from "@petri/events";
import type { ServiceDeps } from "@petri/host";
import {
  AddressAllowlist,
  type Clock,
  type Failpoints,
  type HostedService,
  InternalTokenSigner,
  InternalTokenVerifier,
  type Logger,
  clientInterceptors,
  generateInternalKeyPair,
  healthRoutes,
  serverInterceptors,
} from "@petri/service-kit";
import { createDirectTransport } from "./direct-transport.js";
import { type CloudLabsServiceOptions, createCloudLabsService } from "@petri/cloud-labs";
import { type EngineServiceOptions, createEngineService } from "@petri/engine";
import { type WebhookUrlCheckOptions, createExperimentsService } from "@petri/experiments";
import { createHypothesesService } from "@petri/hypotheses";
import { type IdentityServiceOptions, createIdentityService } from "@petri/identity";
import { createMarketplaceService } from "@petri/marketplace";
import { type NotificationsServiceOptions, createNotificationsService } from "@petri/notifications";

export interface InProcessServicesOptions {
  /**
   * The database the seven services share (a schema each): an open one the caller keeps and
   * closes, or how to open one (then these services close it on stop).
   */
  database: Database | DatabaseConfig;
  /** Where notifications keeps its files (its default key file, when no KEK is given). */
  dataDir: string;
  /** The experiments service's result files. */
  blobDir: string;
  /** Identity's secrets and settings (see @petri/identity standaloneIdentityOptions). */
  identity: IdentityServiceOptions;
  /** Notifications' settings (SMTP, KEK; see @petri/notifications notificationsOptionsFromConfig). */
  notifications?: NotificationsServiceOptions;
  /** How experiments checks webhook URLs at registration (default: the system resolver, no allowlist). */
  experiments?: { webhookUrlCheck?: WebhookUrlCheckOptions };
  /** The engine's run limits and optional LLM and literature providers. */
  engine?: EngineServiceOptions;
  /** Cloud labs' sandbox timing, polling and HTTP lab adapter. */
  cloudlabs?: CloudLabsServiceOptions;
  /** How long the messaging tables keep rows (default DEFAULT_RETENTION). */
  retention?: RetentionSettings;
  logger: Logger;
  clock: Clock;
  failpoints: Failpoints;
}

export interface InProcessServices {
  services: HostedService[];
  database: Database;
  /**
   * The transport to one service: its handlers called with the message objects (no encoding,
   * D357) behind the same server interceptors as the cluster's servers; streaming calls go
   * through a Connect router transport, serialised.
   * The shape @petri/gateway's createServiceClients takes.
   */
  transportFor(name: ServiceName, interceptors: Interceptor[]): Transport;
  /** The caller-side interceptors (the internal principal token the services verify). */
  clientInterceptors: Interceptor[];
  /** Stops the services, the bus and the database when these services opened it; idempotent. */
  stop(): Promise<void>;
}

type ServiceFactory = (deps: ServiceDeps, options: InProcessServicesOptions) => HostedService;

const SERVICE_FACTORIES: Record<ServiceName, ServiceFactory> = {
  identity: (deps, options) => createIdentityService(deps, options.identity),
  experiments: (deps, options) =>
    createExperimentsService(deps, {
      blobStore: { kind: "fs", dir: options.blobDir },
      webhookUrlCheck: options.experiments?.webhookUrlCheck ?? { allowlist: AddressAllowlist.empty },
    }),
  marketplace: createMarketplaceService,
  hypotheses: (deps) => createHypothesesService(deps),
  engine: (deps, options) => createEngineService(deps, options.engine),
  cloudlabs: (deps, options) => createCloudLabsService(deps, options.cloudlabs),
  notifications: (deps, options) =>
    createNotificationsService(deps, { dataDir: options.dataDir, ...options.notifications }),
};

/**
 * The seven services in this process on one database (a schema each) and the in-process bus,
 * migrated and started: what standalone hosts behind its gateway, and what the gateway's
 * integration tests call instead of fakes. A failed start undoes what it had set up.
 */
export async function startServicesInProcess(options: InProcessServicesOptions): Promise<InProcessServices> {
  const { clock, logger, failpoints } = options;
  const teardown: Array<() => Promise<void>> = [];
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      for (const step of teardown.reverse()) await step();
    })());
  try {
    const database = await openDatabase(options.database, teardown);
    const bus = await InProcessEventBus.create({ db: database, clock, logger });
    teardown.push(() => bus.close());
    const deps: ServiceDeps = { database, bus, clock, logger, failpoints, retention: options.retention };
    const services = (Object.keys(SERVICE_FACTORIES) as ServiceName[]).map((name) =>
      SERVICE_FACTORIES[name](deps, options),
    );
    for (const service of services) await service.migrate();
    for (const service of services) {
      await service.start();
      teardown.push(() => service.stop());
    }
    return { services, database, ...(await routerTransports(services, logger)), stop };
  } catch (error) {
    await stop().catch((cleanupError: unknown) =>
      logger.warn({ err: cleanupError }, "cleaning up after a failed start failed"),
    );
    throw error;
  }
}

async function openDatabase(
  choice: Database | DatabaseConfig,
  teardown: Array<() => Promise<void>>,
): Promise<Database> {
  if (!isDatabaseConfig(choice)) return choice;
  const database = await createDatabase(choice);
  teardown.push(() => database.destroy());
  return database;
}

function isDatabaseConfig(choice: Database | DatabaseConfig): choice is DatabaseConfig {
  // An open Database has its Kysely; a configuration has none.
  return !("root" in choice);
}

/**
 * Direct transports to the services, behind the internal-token interceptors with keys that
 * live only in this process's memory.
 */
async function routerTransports(services: readonly HostedService[], logger: Logger) {
  const keys = await generateInternalKeyPair();
  const verifier = await InternalTokenVerifier.create([keys.publicKeyPem]);
  const signer = await InternalTokenSigner.create(keys.privateKeyPem, keys.kid);
  const byName = new Map(services.map((service) => [service.name, service]));
  const transportFor = (name: ServiceName, interceptors: Interceptor[]): Transport => {
    const service = byName.get(name);
    if (!service) throw new Error(`no service ${name} in this process`);
    const routes = (router: ConnectRouter) => {
      service.routes(router);
      healthRoutes(router, () => service.readiness(), [service.name]);
    };
    const serviceSide = serverInterceptors({
      // Its lines (the rpc access line among them) name the service that served the call.
      logger: logger.child({ service: service.name }),
      verifier,
      publicProcedures: [...(service.publicProcedures ?? [])],
    });
    return createDirectTransport({
      routes,
      serverInterceptors: serviceSide,
      clientInterceptors: interceptors,
      streams: createRouterTransport(routes, {
        router: { interceptors: serviceSide },
        transport: { interceptors },
      }),
    });
  };
  return { transportFor, clientInterceptors: clientInterceptors(signer) };
}
