import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Failpoints, createLogger } from "@petri/service-kit";
import {
  type InProcessServices,
  type InProcessServicesOptions,
  startServicesInProcess,
} from "@petri/services-in-process";
import { FakeClock, createTestDatabase, postgresAvailable, requireInfra } from "@petri/testkit";
import { createGateway } from "../../src/app.js";
import type { GatewayAppDeps } from "../../src/lib/create-app.js";
import { type ServiceClients, createServiceClients } from "../../src/lib/clients.js";
import { afterAll, beforeAll, beforeEach, describe } from "vitest";
import { bodyOf, caller, from, json } from "./requests.js";

/** The staff account identity bootstraps at start (PETRI_STAFF_* in a real host). */
export const TEST_STAFF = { email: "staff@petri.test", password: "staff password for route tests" };

/**
 * True when the route tests on the real services can run (PostgreSQL reachable); under
 * CI=true a missing server throws instead (requireInfra).
 */
export async function realServicesAvailable(): Promise<boolean> {
  return requireInfra("PostgreSQL", await postgresAvailable());
}

const realServicesReady = await realServicesAvailable();

export interface SignedUp {
  accountId: string;
  email: string;
  password: string;
  /** An API key of the account, created through POST /auth/api-keys. */
  apiKey: string;
}

export type RealGateway = ReturnType<typeof createGateway>;

export interface RealServices {
  /** A gateway (the code under test) wired to the seven real services. */
  app: RealGateway;
  /** The clock the gateway and every service read; tests move it. */
  clock: FakeClock;
  services: InProcessServices;
  /** The services' failpoints (disarmed), for tests that make a consumer fail. */
  failpoints: Failpoints;
  /** Where the services keep their blobs (result files), for tests that damage one. */
  blobDir: string;
  /**
   * A new account through the public API: POST /auth/register, PATCH /admin/accounts/{id}
   * by staff for a tier other than standard (before any credential exists, so every
   * credential carries it), POST /auth/token and POST /auth/api-keys.
   */
  signUp(options?: {
    tier?: "standard" | "pro" | "ai_agent" | "enterprise";
    name?: string;
  }): Promise<SignedUp>;
  /** A bearer token of the bootstrapped staff account. */
  staffToken(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The real services for one test file (D339): a fresh PostgreSQL database on
 * PETRI_TEST_DATABASE_URL, the seven services migrated and started in this process on the
 * in-process bus (@petri/services-in-process, what standalone runs), and a gateway built
 * on them as standalone builds it. Start it in beforeAll, stop it in afterAll.
 */
export async function startRealServices(
  options: {
    clock?: FakeClock;
    gateway?: Partial<GatewayAppDeps>;
    /** The gateway's clients as the test wants them (wrapped to see or change the answers). */
    clients?: (clients: ServiceClients) => ServiceClients;
    /** Service settings beyond the defaults (a test webhook receiver's allowlist and CA). */
    services?: Pick<InProcessServicesOptions, "notifications" | "experiments">;
  } = {},
): Promise<RealServices> {
  const clock = options.clock ?? new FakeClock();
  const failpoints = new Failpoints();
  const logger = createLogger({ service: "gateway-test", level: "silent" });
  const database = await createTestDatabase("petri_gateway");
  const filesDir = await mkdtemp(path.join(tmpdir(), "petri-gateway-test-"));
  const blobDir = path.join(filesDir, "blobs");
  let services: InProcessServices;
  try {
    services = await startServicesInProcess({
      database: { driver: "pg", url: database.url, poolMax: 10 },
      dataDir: filesDir,
      blobDir,
      identity: { kek: randomBytes(32), apiKeyPepper: randomBytes(32), staff: TEST_STAFF },
      logger,
      clock,
      failpoints,
      ...options.services,
    });
  } catch (error) {
    await database.drop();
    await rm(filesDir, { recursive: true, force: true });
    throw error;
  }
  const clients = createServiceClients(services.transportFor, services.clientInterceptors);
  const app = createGateway({
    clients: options.clients ? options.clients(clients) : clients,
    logger,
    clock,
    ...options.gateway,
  });
  const helpers = accountHelpers(app, clock);
  return {
    app,
    clock,
    services,
    blobDir,
    failpoints,
    ...helpers,
    async stop() {
      await services.stop();
      await database.drop();
      await rm(filesDir, { recursive: true, force: true });
    },
  };
}

export type RealServicesOptions = Parameters<typeof startRealServices>[0];

/**
 * The real services of the enclosing describe block: started in its beforeAll (with the
 * options `start` answers then, and `prepare` run once after, for the accounts the block's
 * tests share) and stopped in its afterAll. `running()` is the started services and throws
 * outside the block's life; `call` calls the gateway from `source` with the API key `key()`.
 */
export function realServicesOfBlock(options: {
  source: string;
  key?: () => string;
  start?: () => RealServicesOptions;
  prepare?: (petri: RealServices) => Promise<void>;
}) {
  let petri: RealServices | undefined;
  const running = (): RealServices => {
    if (!petri) throw new Error("the real services are not started");
    return petri;
  };
  beforeAll(async () => {
    petri = await startRealServices(options.start?.());
    await options.prepare?.(petri);
  });
  afterAll(async () => {
    await petri?.stop();
    petri = undefined;
  });
  const call = caller(
    { request: (path: string, init: RequestInit, env: unknown) => running().app.request(path, init, env) },
    options.source,
    options.key ?? (() => ""),
  );
  return { running, call };
}

/** What the tests of a describeOnRealServices block get. */
export interface RealServicesScope {
  /** The block's services (inside tests and hooks). */
  petri(): RealServices;
  /** The clock the gateway and every service read; tests move it. */
  clock: FakeClock;
  /** Calls the gateway as this test's own account, or with the key given. */
  call: ReturnType<typeof caller>;
  /** This test's own account, a fresh one on the pro tier. */
  account(): SignedUp;
  /** The API key of a second fresh account, for what another account sees. */
  otherKey(): string;
}

/**
 * A describe block on the real services: started once for the block (at `start` on a fake
 * clock; skipped without PostgreSQL, failing under CI=true) and stopped after it; each test
 * gets two fresh pro accounts, so tests isolate by account. `source` is the address its calls
 * come from.
 */
export function describeOnRealServices(
  name: string,
  options: { start: string; source: string; clients?: (clients: ServiceClients) => ServiceClients },
  body: (scope: RealServicesScope) => void,
): void {
  describe.skipIf(!realServicesReady)(name, () => {
    const clock = new FakeClock(options.start);
    let account: SignedUp | undefined;
    let otherKey: string | undefined;
    const current = () => {
      if (!account || otherKey === undefined) throw new Error("no account outside a test");
      return { account, otherKey };
    };
    const { running, call } = realServicesOfBlock({
      source: options.source,
      key: () => current().account.apiKey,
      start: () => ({ clock, clients: options.clients }),
    });
    beforeEach(async () => {
      account = await running().signUp({ tier: "pro" });
      otherKey = (await running().signUp({ tier: "pro" })).apiKey;
    });
    body({
      petri: running,
      clock,
      call,
      account: () => current().account,
      otherKey: () => current().otherKey,
    });
  });
}

/** Polls `probe` until it answers something (events cross the in-process bus a moment later). */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Anonymous calls count per source address; each sign-up comes from an address of its own. */
let signUps = 0;
const signUpSource = () => {
  signUps += 1;
  return `203.0.113.${(signUps % 250) + 1}`;
};

/** How long a staff token is reused: well inside identity's default lifetime (an hour). */
const STAFF_TOKEN_REUSE_MS = 10 * 60_000;

function accountHelpers(app: RealGateway, clock: FakeClock) {
  const post = async (source: string, url: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await app.request(url, json(body, headers), from(source));
    if (response.status >= 300) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return bodyOf(response);
  };
  const tokenFor = async (source: string, email: string, password: string): Promise<string> =>
    (await post(source, "/auth/token", { email, password })).access_token;

  // Each login costs a password hash check (argon2id, tens of milliseconds): staff log in once
  // and reuse the token while the test clock stays well inside its lifetime.
  let staff: { token: string; at: number } | undefined;
  const staffToken = async () => {
    if (staff === undefined || clock.now().getTime() - staff.at > STAFF_TOKEN_REUSE_MS)
      staff = {
        token: await tokenFor(signUpSource(), TEST_STAFF.email, TEST_STAFF.password),
        at: clock.now().getTime(),
      };
    return staff.token;
  };

  async function signUp(
    options: { tier?: "standard" | "pro" | "ai_agent" | "enterprise"; name?: string } = {},
  ) {
    const source = signUpSource();
    const email = `user-${randomBytes(6).toString("hex")}@example.org`;
    const password = "a long enough password";
    const name = options.name ?? "Ada";
    const { account } = await post(source, "/auth/register", { email, password, name, organization: "Lab" });
    if (options.tier && options.tier !== "standard") {
      const response = await app.request(
        `/admin/accounts/${account.id}`,
        {
          method: "PATCH",
          headers: { "content-type": "application/json", authorization: `Bearer ${await staffToken()}` },
          body: JSON.stringify({ tier: options.tier }),
        },
        from(source),
      );
      if (response.status !== 200)
        throw new Error(`tier change: ${response.status} ${await response.text()}`);
    }
    const token = await tokenFor(source, email, password);
    const created = await post(
      source,
      "/auth/api-keys",
      { name: "tests" },
      { authorization: `Bearer ${token}` },
    );
    return { accountId: account.id as string, email, password, apiKey: created.api_key_secret as string };
  }

  return { signUp, staffToken };
}
