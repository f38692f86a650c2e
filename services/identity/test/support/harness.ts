/**
 * Integration harness: the identity service on a real database (PostgreSQL or PGlite), its
 * outbox relay on the in-process bus, reached through a Connect router transport with the
 * same server interceptors as production (trace, errors, internal principal token), so
 * every call crosses the contract and the authorization checks.
 */
import { randomBytes } from "node:crypto";
import type { Client } from "@connectrpc/connect";
import { IdentityService } from "@petri/contracts/identity";
import { type Database } from "@petri/db";
import { InProcessEventBus } from "@petri/events";
import { type Failpoints, type Principal, failpoints } from "@petri/service-kit";
import type { Engine, TestBackend } from "@petri/service-testkit";
import { routerClients, serviceOfBlock, serviceTestBed } from "@petri/service-testkit";
import { FakeClock } from "@petri/testkit";
import type { Kysely } from "kysely";
import type { IdentityDb } from "../../src/db/schema.js";
import {
  type IdentityHostedService,
  type IdentityServiceOptions,
  createIdentityService,
} from "../../src/service.js";
import { type PasswordHasher, argon2Hasher } from "../../src/security/passwords.js";

export type { Engine };

const bed = await serviceTestBed("identity");
export const { engines: ENGINES, logger, system: SYSTEM, backend: Backend } = bed;
export type Backend = TestBackend;

/** Counts argon2 work, so tests can prove "one verification" without timing anything. */
export class CountingHasher implements PasswordHasher {
  hashes = 0;
  verifications = 0;
  constructor(private readonly inner: PasswordHasher = argon2Hasher) {}
  hash(password: string) {
    this.hashes += 1;
    return this.inner.hash(password);
  }
  verify(hash: string, password: string) {
    this.verifications += 1;
    return this.inner.verify(hash, password);
  }
  needsRehash(hash: string) {
    return this.inner.needsRehash(hash);
  }
}

export function testSecrets(): Pick<IdentityServiceOptions, "kek" | "apiKeyPepper"> {
  return { kek: randomBytes(32), apiKeyPepper: randomBytes(32) };
}

export interface Identity {
  service: IdentityHostedService;
  db: Kysely<IdentityDb>;
  clock: FakeClock;
  options: IdentityServiceOptions;
  /** The in-process bus this replica publishes to and consumes from. */
  bus: InProcessEventBus;
  /** A client calling as `principal` (none: anonymous). */
  as(principal?: Principal): Client<typeof IdentityService>;
  stop(): Promise<void>;
}

/** Creates (migrates and starts, unless told not to) one identity replica on `database`. */
export async function startIdentity(
  database: Database,
  options: IdentityServiceOptions,
  setup: { clock?: FakeClock; start?: boolean; failpoints?: Failpoints } = {},
): Promise<Identity> {
  const clock = setup.clock ?? new FakeClock("2026-03-02T10:00:00.000Z");
  const bus = await InProcessEventBus.create({ db: database, clock, logger });
  const service = createIdentityService(
    { database, bus, clock, logger, failpoints: setup.failpoints ?? failpoints },
    { purgeIntervalMs: 10 * 60_000, ...options },
  );
  await service.migrate();
  if (setup.start !== false) await service.start();
  const as = await routerClients(IdentityService, (router) => service.routes(router), logger, [
    ...(service.publicProcedures ?? []),
  ]);
  let stopped = false;
  return {
    service,
    db: database.forSchema<IdentityDb>("identity"),
    clock,
    options,
    bus,
    as,
    async stop() {
      if (stopped) return;
      stopped = true;
      await service.stop();
      await bus.close();
    },
  };
}

/**
 * For the tests of the enclosing describe block: a database of its own on `engine` and one
 * identity replica on it (fresh test secrets, `setup.options` over them), started before the
 * block's tests and stopped after them, or afresh around every test with `setup.perTest`.
 * `started` gets each replica and its database once it runs (to keep it, or start more on it).
 */
export function identityOfBlock(
  engine: Engine,
  started: (identity: Identity, backend: Backend) => unknown,
  setup: { options?: Partial<IdentityServiceOptions>; perTest?: boolean } = {},
): void {
  serviceOfBlock(
    () => Backend.open(engine),
    (backend) => startIdentity(backend.database, { ...testSecrets(), ...setup.options }),
    started,
    { perTest: setup.perTest },
  );
}

let counter = 0;
/** A unique, valid registration. */
export function registration(label = "user") {
  counter += 1;
  return {
    email: `${label}-${counter}-${randomBytes(3).toString("hex")}@example.org`,
    password: `correct horse battery ${counter}`,
    name: `${label} ${counter}`,
    organization: "Lab",
  };
}

/** The principal a registered account acts as through the gateway. */
export function principalOf(account: { id: string }, role: Principal["role"] = "requester"): Principal {
  return { accountId: account.id, role, tier: "standard" };
}

/** Moves the fake clock in one step (advance() would wake every poll loop at each of its deadlines). */
export async function jump(identity: Identity, ms: number): Promise<void> {
  await identity.clock.set(identity.clock.now().getTime() + ms);
}

/** The ConnectError a call failed with (fails the test when it succeeded). */
export { callRejection as rejection } from "@petri/service-testkit";
