import { IdentityService } from "@petri/contracts/identity";
import { type UnitOfWork, createUnitOfWork } from "@petri/events";
import { type ServiceDeps, createServiceRuntime } from "@petri/host";
import { type Clock, type HostedService, KeyEncryptionKey, type Logger } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { makeAcquireQuota } from "./app/acquire-quota.js";
import { makeAuthenticateApiKey } from "./app/authenticate-api-key.js";
import { type StaffCredentials, makeBootstrapStaff } from "./app/bootstrap-staff.js";
import { makeChangePassword } from "./app/change-password.js";
import { makeCreateApiKey } from "./app/create-api-key.js";
import { makeEnsureSigningKey } from "./app/ensure-signing-key.js";
import { makeGetAccount } from "./app/get-account.js";
import { makeIssueToken } from "./app/issue-token.js";
import { makeListApiKeys } from "./app/list-api-keys.js";
import { makeListRevocations } from "./app/list-revocations.js";
import { makeListSigningKeys } from "./app/list-signing-keys.js";
import { housekeepingLoop } from "./app/housekeeping-loop.js";
import { makePurgeExpiredRecords } from "./app/purge-expired-records.js";
import { makeRegisterAccount } from "./app/register-account.js";
import { RevocationFeed } from "./app/revocation-feed.js";
import { makeRevokeAccessToken } from "./app/revoke-access-token.js";
import { makeRevokeApiKey } from "./app/revoke-api-key.js";
import { makeRotateSigningKey } from "./app/rotate-signing-key.js";
import { ActiveSigningKeySource } from "./app/signing-key-cache.js";
import { makeUpdateAccountAccess } from "./app/update-account-access.js";
import { identityConsumers } from "./events/subscriptions.js";
import { identityMigrations } from "./db/migrations/index.js";
import type { IdentityDb } from "./db/schema.js";
import { IDENTITY_PUBLIC_PROCEDURES, type IdentityUseCases, IdentityRpc } from "./rpc/identity-rpc.js";
import { API_KEY_PEPPER_MIN_BYTES } from "./security/api-keys.js";
import { type PasswordHasher, argon2Hasher, dummyPasswordHash } from "./security/passwords.js";
import { IDENTITY_KEK_PURPOSE } from "./security/signing-keys.js";

export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600;
export const MIN_ACCESS_TOKEN_TTL_SECONDS = 60;
export const MAX_ACCESS_TOKEN_TTL_SECONDS = 86_400;
const DEFAULT_PURGE_INTERVAL_MS = 10 * 60_000;

/** What identity needs beyond the shared ServiceDeps; both run modes pass it. */
export interface IdentityServiceOptions {
  /** Key-encryption key for signing keys at rest (PETRI_IDENTITY_KEK): exactly 32 bytes. */
  kek: Uint8Array;
  /** HMAC key for API key hashes (PETRI_API_KEY_PEPPER): at least 32 bytes. */
  apiKeyPepper: Uint8Array;
  /** Access-token lifetime (ACCESS_TOKEN_TTL_SECONDS), 60..86400; default 3600. */
  accessTokenTtlSeconds?: number;
  /** PETRI_STAFF_EMAIL / PETRI_STAFF_PASSWORD: created or reset at start(). */
  staff?: StaffCredentials | undefined;
  /** Test seam; default argon2id with OWASP parameters. */
  passwordHasher?: PasswordHasher;
  /** How often expired quota counters and retired signing keys are deleted; default 10 min. */
  purgeIntervalMs?: number;
}

export interface IdentityHostedService extends HostedService {
  /** The use cases behind the RPCs, for tests and the host. */
  readonly useCases: IdentityUseCases;
  /** One housekeeping pass (also run every purgeIntervalMs while started). */
  purgeExpiredRecords(): Promise<{ quotaCounters: number; signingKeys: number; revokedTokens: number }>;
}

function checkOptions(options: IdentityServiceOptions): number {
  if (options.apiKeyPepper.length < API_KEY_PEPPER_MIN_BYTES)
    throw new RangeError(`the API key pepper must be at least ${API_KEY_PEPPER_MIN_BYTES} bytes`);
  const ttl = options.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < MIN_ACCESS_TOKEN_TTL_SECONDS || ttl > MAX_ACCESS_TOKEN_TTL_SECONDS)
    throw new RangeError(
      `the access-token lifetime must be ${MIN_ACCESS_TOKEN_TTL_SECONDS}..${MAX_ACCESS_TOKEN_TTL_SECONDS} seconds`,
    );
  return ttl;
}

/** Composition root of the identity service: accounts, credentials and quotas. */
export function createIdentityService(
  deps: ServiceDeps,
  options: IdentityServiceOptions,
): IdentityHostedService {
  const accessTokenTtlSeconds = checkOptions(options);
  const kek = KeyEncryptionKey.fromBytes(options.kek, { purpose: IDENTITY_KEK_PURPOSE });
  const apiKeyPepper = Buffer.from(options.apiKeyPepper);
  const hasher = options.passwordHasher ?? argon2Hasher;
  const runtime = createServiceRuntime<IdentityDb>({
    ...deps,
    service: "identity",
    migrations: identityMigrations,
    consumers: identityConsumers(deps.clock),
  });
  const { db } = runtime;
  const unitOfWork = createUnitOfWork(db, runtime.committedEvents);
  const { clock } = deps;
  const logger = deps.logger.child({ service: "identity" });

  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= dummyPasswordHash(hasher));
  const signingKeys = new ActiveSigningKeySource(db, kek);

  const revocationFeed = new RevocationFeed({ bus: deps.bus, logger });
  const useCases = identityUseCases({
    db,
    clock,
    logger,
    hasher,
    dummyHash: dummy,
    apiKeyPepper,
    unitOfWork,
    signingKeys,
    kek,
    accessTokenTtlSeconds,
    revocationFeed,
  });

  const ensureSigningKey = makeEnsureSigningKey({ db, clock, kek, signingKeys });
  const bootstrapStaff = makeBootstrapStaff({ db, clock, logger, hasher, unitOfWork });
  const purgeExpiredRecords = makePurgeExpiredRecords({ db, clock });
  const rpc = new IdentityRpc(useCases);

  const housekeeping = housekeepingLoop({
    purge: purgeExpiredRecords,
    clock,
    logger,
    intervalMs: options.purgeIntervalMs ?? DEFAULT_PURGE_INTERVAL_MS,
  });

  return {
    ...runtime.hosted,
    useCases,
    purgeExpiredRecords,
    routes: (router) => {
      router.service(IdentityService, rpc);
      runtime.routeDeadLetters(router);
    },
    // Registration and token issuance are how a caller gets credentials: they cannot need any.
    publicProcedures: IDENTITY_PUBLIC_PROCEDURES,
    async start() {
      // Before anything can publish: a watching gateway must miss no revocation.
      await revocationFeed.start();
      await runtime.hosted.start();
      // Fails the start (not the first login) when no key can be made or opened, e.g. a wrong KEK.
      const key = await ensureSigningKey();
      logger.info({ kid: key.kid, created: key.created }, "access-token signing key ready");
      await dummy();
      if (options.staff) await bootstrapStaff(options.staff);
      housekeeping.start();
    },
    async stop() {
      revocationFeed.stop();
      await housekeeping.stop();
      await runtime.hosted.stop();
    },
  };
}

/** What the use cases are built from. */
interface IdentityWiring {
  db: Kysely<IdentityDb>;
  clock: Clock;
  logger: Logger;
  hasher: PasswordHasher;
  dummyHash: () => Promise<string>;
  apiKeyPepper: Buffer;
  unitOfWork: UnitOfWork<IdentityDb>;
  signingKeys: ActiveSigningKeySource;
  kek: KeyEncryptionKey;
  accessTokenTtlSeconds: number;
  revocationFeed: RevocationFeed;
}

/** The use cases behind the RPCs. */
function identityUseCases(wiring: IdentityWiring): IdentityUseCases {
  const { db, clock, logger, hasher, apiKeyPepper, unitOfWork, signingKeys, kek, accessTokenTtlSeconds } =
    wiring;
  return {
    registerAccount: makeRegisterAccount({
      clock,
      hashPassword: (password) => hasher.hash(password),
      apiKeyPepper,
      unitOfWork,
    }),
    issueToken: makeIssueToken({
      db,
      clock,
      logger,
      hasher,
      dummyHash: wiring.dummyHash,
      signingKeys,
      accessTokenTtlSeconds,
    }),
    getAccount: makeGetAccount({ db }),
    createApiKey: makeCreateApiKey({ clock, apiKeyPepper, unitOfWork }),
    listApiKeys: makeListApiKeys({ db }),
    revokeApiKey: makeRevokeApiKey({ db, clock, unitOfWork }),
    updateAccountAccess: makeUpdateAccountAccess({ clock, unitOfWork }),
    authenticateApiKey: makeAuthenticateApiKey({ db, clock, apiKeyPepper }),
    listSigningKeys: makeListSigningKeys({ db, clock }),
    rotateSigningKey: makeRotateSigningKey({ clock, kek, accessTokenTtlSeconds, unitOfWork }),
    acquireQuota: makeAcquireQuota({ db, clock }),
    listRevocations: makeListRevocations({ db, clock, accessTokenTtlSeconds }),
    revokeAccessToken: makeRevokeAccessToken({ clock, unitOfWork }),
    changePassword: makeChangePassword({ db, clock, hasher, unitOfWork }),
    watchRevocations: (signal) => wiring.revocationFeed.watch(signal),
  };
}
