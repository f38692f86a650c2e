import { randomBytes } from "node:crypto";
import type { DescService, Message } from "@bufbuild/protobuf";
import {
  type Client,
  ConnectError,
  type ConnectRouter,
  type Interceptor,
  createClient,
  createRouterTransport,
} from "@connectrpc/connect";
import { type Database, type MessagingTables, createDatabase } from "@petri/db";
import { type EventBus, InProcessEventBus, decodeEnvelope, decodePayload } from "@petri/events";
import type { ServiceDeps } from "@petri/host";
import {
  InternalTokenSigner,
  InternalTokenVerifier,
  type Logger,
  PRINCIPAL_HEADER,
  type Principal,
  errorDetailOf,
  errorDetailsObject,
  failpoints,
  generateInternalKeyPair,
  type HostedService,
  createLogger,
  serverInterceptors,
} from "@petri/service-kit";
import {
  FakeClock,
  type TestDatabase,
  createTestDatabase,
  postgresAvailable,
  requireInfra,
} from "@petri/testkit";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

export type Engine = "pg" | "pglite";

/**
 * The engines every service scenario runs on: PostgreSQL when it is reachable (under CI=true a
 * missing server throws instead) and always PGlite in memory.
 */
export async function testEngines(): Promise<Engine[]> {
  return requireInfra("PostgreSQL", await postgresAvailable()) ? ["pg", "pglite"] : ["pglite"];
}

/** A database for one test file: a fresh PostgreSQL database, or an in-memory PGlite. */
export class TestBackend {
  private readonly opened: Database[] = [];

  private constructor(
    readonly engine: Engine,
    private readonly testDb: TestDatabase | undefined,
    readonly database: Database,
  ) {
    this.opened.push(database);
  }

  static async open(engine: Engine, databasePrefix = "petri_test"): Promise<TestBackend> {
    if (engine === "pglite") {
      return new TestBackend(
        engine,
        undefined,
        await createDatabase({ driver: "pglite", dataDir: "memory://" }),
      );
    }
    const testDb = await createTestDatabase(databasePrefix);
    return new TestBackend(engine, testDb, await createDatabase({ driver: "pg", url: testDb.url }));
  }

  /** Another connection pool to the same database, as a second replica would have; PGlite has one. */
  async connection(): Promise<Database> {
    if (!this.testDb) return this.database;
    const database = await createDatabase({ driver: "pg", url: this.testDb.url });
    this.opened.push(database);
    return database;
  }

  async close(): Promise<void> {
    for (const database of this.opened.reverse()) await database.destroy();
    await this.testDb?.drop();
  }
}

/** What every service's integration harness opens with, named for one service. */
export interface ServiceTestBed {
  /** The engines its scenarios run on (see testEngines). */
  engines: Engine[];
  /** A logger that writes nothing, for the service and its test transport. */
  logger: Logger;
  /** The gateway's system principal. */
  system: Principal;
  /** Opens a database for one test file, named after the service on PostgreSQL. */
  backend: { open(engine: Engine): Promise<TestBackend> };
}

/** The test bed of the service `name` (as in "cloudlabs": logger `cloudlabs-test`, databases `petri_cloudlabs_*`). */
export async function serviceTestBed(name: string): Promise<ServiceTestBed> {
  return {
    engines: await testEngines(),
    logger: createLogger({ service: `${name}-test`, level: "silent" }),
    system: { accountId: "system:gateway", role: "system", tier: "standard" },
    backend: { open: (engine) => TestBackend.open(engine, `petri_${name}`) },
  };
}

/**
 * For the tests of the enclosing describe block: a database of its own (`openBackend`) with a
 * service `start`ed on it before the block's tests and stopped after them, or afresh around
 * every test with `perTest`. `started` gets each service and its database once it runs.
 */
export function serviceOfBlock<S extends { stop(): Promise<void> }>(
  openBackend: () => Promise<TestBackend>,
  start: (backend: TestBackend) => Promise<S>,
  started: (service: S, backend: TestBackend) => unknown,
  options: { perTest?: boolean } = {},
): void {
  let backend: TestBackend | undefined;
  let service: S | undefined;
  (options.perTest ? beforeEach : beforeAll)(async () => {
    backend = await openBackend();
    service = await start(backend);
    await started(service, backend);
  });
  (options.perTest ? afterEach : afterAll)(async () => {
    await service?.stop();
    await backend?.close();
    service = backend = undefined;
  });
}

let accountsMade = 0;
/**
 * A principal for a fresh account (`label` shows in its id): the gateway vouches for it, so no
 * identity service is needed.
 */
export function testPrincipal(role: Principal["role"], label: string): Principal {
  accountsMade += 1;
  return {
    accountId: `usr_${label}${accountsMade}${randomBytes(4).toString("hex")}`,
    role,
    tier: "standard",
  };
}

/** A requester of a fresh account. */
export const testRequester = (label = "req"): Principal => testPrincipal("requester", label);

/** A staff member of a fresh account. */
export const testStaff = (label = "staff"): Principal => testPrincipal("staff", label);

/** A fresh internal key pair: the signer plays the gateway, the verifier the service. */
export async function internalTestCredentials(): Promise<{
  signer: InternalTokenSigner;
  verifier: InternalTokenVerifier;
}> {
  const keys = await generateInternalKeyPair();
  return {
    verifier: await InternalTokenVerifier.create([keys.publicKeyPem]),
    signer: await InternalTokenSigner.create(keys.privateKeyPem, keys.kid),
  };
}

/**
 * Clients of one service's Connect routes, through a router transport with the production
 * server interceptors (trace, errors, internal principal token): every call crosses the
 * contract and the authorization checks. `as(principal)` calls as that principal (none:
 * anonymous).
 */
export async function routerClients<S extends DescService>(
  service: S,
  routes: (router: ConnectRouter) => void,
  logger: Logger,
  /** Procedures callable without a principal (the service's publicProcedures). */
  publicProcedures: readonly string[] = [],
): Promise<(principal?: Principal) => Client<S>> {
  const { verifier, signer } = await internalTestCredentials();
  const interceptors = serverInterceptors({ logger, verifier, publicProcedures: [...publicProcedures] });
  return (principal?: Principal) => {
    const attach: Interceptor = (next) => async (req) => {
      if (principal) req.header.set(PRINCIPAL_HEADER, await signer.sign(principal));
      return next(req);
    };
    return createClient(
      service,
      createRouterTransport(routes, { router: { interceptors }, transport: { interceptors: [attach] } }),
    );
  };
}

/** The ConnectError a call failed with (fails when the call succeeded). */
export async function callRejection(promise: Promise<unknown>): Promise<ConnectError> {
  try {
    await promise;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error("expected the call to fail");
}

/** Code, reason, details and field violations of a failed call (fails when the call succeeded). */
export async function callFailure(promise: Promise<unknown>) {
  const error = await callRejection(promise);
  const detail = errorDetailOf(error);
  return {
    code: error.code,
    reason: detail?.reason ?? "",
    details: errorDetailsObject(detail),
    violations: detail?.fieldViolations.map((v) => ({ field: v.field, code: v.code })) ?? [],
  };
}

/** The events a service recorded in its outbox for one aggregate, decoded, in order. */
export async function outboxEvents<DB extends MessagingTables>(
  db: Kysely<DB>,
  aggregateId: string,
): Promise<Array<{ subject: string; version: number; payload: Message & Record<string, any> }>> {
  // A Kysely is invariant in its schema: seen as the messaging tables every service schema holds.
  const messaging = db as unknown as Kysely<MessagingTables>;
  const rows = await messaging
    .selectFrom("outbox")
    .select(["envelope", "subject", "aggregate_version"])
    .where("aggregate_id", "=", aggregateId)
    .orderBy("seq")
    .execute();
  return rows.map((row) => ({
    subject: row.subject,
    version: Number(row.aggregate_version),
    payload: decodePayload(decodeEnvelope(row.envelope)) as Message & Record<string, any>,
  }));
}

export interface ServiceUnderTest<S extends HostedService> {
  service: S;
  clock: FakeClock;
  /** The in-process bus the service consumes from: publish other services' events on it. */
  bus: EventBus;
  /** Stops the service and its bus; a second call does nothing. */
  stop(): Promise<void>;
}

/**
 * Creates one service on `database` with an in-process bus and a fake clock at `start`,
 * migrates it and starts it: the common opening of every service's integration tests.
 */
export async function startServiceForTest<S extends HostedService>(
  database: Database,
  start: Date,
  logger: Logger,
  create: (deps: ServiceDeps) => S,
): Promise<ServiceUnderTest<S>> {
  const clock = new FakeClock(start);
  const bus = await InProcessEventBus.create({ db: database, clock, logger });
  const service = create({ database, bus, clock, logger, failpoints });
  await service.migrate();
  await service.start();
  let stopped = false;
  return {
    service,
    clock,
    bus,
    async stop() {
      if (stopped) return;
      stopped = true;
      await service.stop();
      await bus.close();
    },
  };
}

export { type ContractChange, contractChangesOf } from "./schema-steps.js";
