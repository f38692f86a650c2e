/**
 * An in-memory IdentityService for gateway tests: accounts, API keys in the documented
 * format, real Ed25519 access-token signing keys (jose), and atomic fixed-window quota
 * counters on the test's clock. Calls cross a Connect router transport with the real
 * internal-principal interceptors, so each RPC sees (and the fake records) the principal the
 * gateway sent.
 */
import { randomBytes } from "node:crypto";
import { EventEmitter, on } from "node:events";
import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  Code,
  ConnectError,
  type HandlerContext,
  type ServiceImpl,
  createRouterTransport,
} from "@connectrpc/connect";
import { DeadLetterService } from "@petri/contracts/common";
import { Health, HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import {
  type Account,
  AccountSchema,
  type ApiKey,
  ApiKeySchema,
  AuthenticatedPrincipalSchema,
  IdentityService,
  QuotaPolicy,
  QuotaWindowSchema,
  Role,
  SigningKeySchema,
  SigningKeyState,
  Tier,
  CredentialsEpochSchema,
  type WatchRevocationsResponse,
  WatchRevocationsResponseSchema,
} from "@petri/contracts/identity";
import {
  type Clock,
  InternalTokenSigner,
  InternalTokenVerifier,
  type Logger,
  type Principal,
  clientInterceptors,
  createLogger,
  generateInternalKeyPair,
  kPrincipal,
  serverInterceptors,
} from "@petri/service-kit";
import { type CryptoKey, type JWK, type JWTPayload, SignJWT, exportJWK, generateKeyPair } from "jose";
import { ROLE_NAME_BY_VALUE, TIER_NAME_BY_VALUE } from "@petri/contracts/vocabulary";
import { BASE62_ALPHABET, formatApiKey } from "../../src/lib/api-key-format.js";
import { createGateway } from "../../src/app.js";
import { type GatewayAppDeps } from "../../src/lib/create-app.js";
import { createServiceClients } from "../../src/lib/clients.js";

export const ISSUER = "https://identity.petri.test";
export const AUDIENCE = "petri-api";

const MINUTE = 60_000;
const DAY = 86_400_000;

export const TIER_QUOTA: Record<Tier, { minute: number; day: number }> = {
  [Tier.UNSPECIFIED]: { minute: 0, day: 0 },
  [Tier.STANDARD]: { minute: 100, day: 1_000 },
  [Tier.PRO]: { minute: 1_000, day: 10_000 },
  [Tier.AI_AGENT]: { minute: 500, day: 5_000 },
  // An account without its own limits (never, in identity) would get the standard ones.
  [Tier.CUSTOM]: { minute: 100, day: 1_000 },
};
export const ANONYMOUS_PER_MINUTE = 30;
export const CREDENTIAL_FAILURES_PER_MINUTE = 20;
export const ADDRESS_AUTH_FAILURES_PER_MINUTE = 1_000;

interface StoredKey {
  key: ApiKey;
  accountId: string;
  secret: string;
}

export interface SigningKeyPair {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  state: SigningKeyState;
  retiresAt?: Date;
}

const PUBLIC_PROCEDURES = [
  "petri.identity.v1.IdentityService/RegisterAccount",
  "petri.identity.v1.IdentityService/IssueToken",
];

function randomBase62(length: number): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => BASE62_ALPHABET[b % 62]).join("");
}

let sequence = 0;
const nextId = (prefix: string) => `${prefix}_${(++sequence).toString().padStart(26, "0")}`;

export class FakeIdentity {
  readonly accounts = new Map<string, { account: Account; password: string }>();
  readonly keys = new Map<string, StoredKey>();
  signingKeys: SigningKeyPair[] = [];
  /** How often each RPC was called. */
  readonly calls = new Map<string, number>();
  /** Every RPC with the principal it arrived with. */
  readonly principals: Array<{ method: string; principal: Principal | undefined }> = [];
  /** Make an RPC fail with Unavailable. */
  readonly down = new Set<string>();
  /** Services whose grpc.health.v1 check answers NOT_SERVING. */
  readonly notServing = new Set<string>();
  /** petri.common.v1.DeadLetterService as each service serves it (tests set it; default: none). */
  deadLetterService: ((service: string) => ServiceImpl<typeof DeadLetterService>) | undefined;
  /** Make an RPC fail with this error (after recording the call). */
  readonly failures = new Map<string, () => Error>();
  private readonly counters = new Map<string, number>();
  /** account -> credentials epoch (raised by access and password changes), with when. */
  readonly epochs = new Map<string, { epoch: number; changedAt: Date }>();
  /** jti -> account and expiry. */
  readonly revokedTokens = new Map<string, { accountId: string; expiresAt: Date }>();
  /** While true, revocation events are lost (the gateways learn from ListRevocations only). */
  eventsLost = false;
  readonly logger: Logger = createLogger({ service: "fake-identity", level: "silent" });

  private constructor(readonly clock: Clock) {}

  static async create(clock: Clock): Promise<FakeIdentity> {
    const identity = new FakeIdentity(clock);
    await identity.addSigningKey();
    return identity;
  }

  count(method: string): number {
    return this.calls.get(method) ?? 0;
  }

  /** Every open WatchRevocations stream gets each revocation (unless eventsLost). */
  private readonly watchers = new EventEmitter().setMaxListeners(0);

  /** Ends every open WatchRevocations stream (identity restarting, a connection lost). */
  endWatches(): void {
    this.watchers.emit("end");
  }

  private publish(update: WatchRevocationsResponse): void {
    if (!this.eventsLost) this.watchers.emit("revocation", update);
  }

  epochOf(accountId: string): number {
    return this.epochs.get(accountId)?.epoch ?? 0;
  }

  /** What identity does on a role, tier or password change. */
  raiseEpoch(accountId: string): void {
    const raised = { epoch: this.epochOf(accountId) + 1, changedAt: this.clock.now() };
    this.epochs.set(accountId, raised);
    const epoch = create(CredentialsEpochSchema, {
      accountId,
      epoch: BigInt(raised.epoch),
      changedAt: timestampFromDate(raised.changedAt),
    });
    this.publish(create(WatchRevocationsResponseSchema, { revocation: { case: "epoch", value: epoch } }));
  }

  /** A new ACTIVE signing key; the previous active one becomes RETIRING (still listed). */
  async addSigningKey(retiresInMs = 3_600_000): Promise<SigningKeyPair> {
    const { privateKey, publicKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
    const kid = nextId("kid");
    for (const key of this.signingKeys) {
      if (key.state === SigningKeyState.ACTIVE) {
        key.state = SigningKeyState.RETIRING;
        key.retiresAt = new Date(this.clock.now().getTime() + retiresInMs);
      }
    }
    const pair: SigningKeyPair = {
      kid,
      privateKey,
      publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "EdDSA", use: "sig" },
      state: SigningKeyState.ACTIVE,
    };
    this.signingKeys.push(pair);
    return pair;
  }

  /** Stops listing a key (after its retirement). */
  dropSigningKey(kid: string): void {
    this.signingKeys = this.signingKeys.filter((key) => key.kid !== kid);
  }

  get activeKey(): SigningKeyPair {
    return this.signingKeys.find((key) => key.state === SigningKeyState.ACTIVE)!;
  }

  addAccount(options: { role?: Role; tier?: Tier; email?: string; password?: string } = {}) {
    const id = nextId("usr");
    const account = create(AccountSchema, {
      id,
      email: options.email ?? `${id}@example.org`,
      name: `Account ${id}`,
      organization: "",
      role: options.role ?? Role.REQUESTER,
      tier: options.tier ?? Tier.STANDARD,
      createdAt: timestampFromDate(this.clock.now()),
    });
    this.accounts.set(id, { account, password: options.password ?? "correct horse battery" });
    const { secret } = this.addKey(id, "default");
    return { account, secret };
  }

  addKey(accountId: string, name: string) {
    const secret = formatApiKey(randomBase62(32));
    const key = create(ApiKeySchema, {
      id: nextId("key"),
      name,
      displayPrefix: secret.slice(0, 13),
      createdAt: timestampFromDate(this.clock.now()),
    });
    this.keys.set(key.id, { key, accountId, secret });
    return { key, secret };
  }

  /** An access token signed like identity signs them; every part can be overridden. */
  async token(
    accountId: string,
    options: {
      claims?: JWTPayload & Record<string, unknown>;
      header?: Record<string, unknown>;
      key?: SigningKeyPair;
      ttlSeconds?: number;
      omitExp?: boolean;
    } = {},
  ): Promise<string> {
    const { account } = this.accounts.get(accountId)!;
    const key = options.key ?? this.activeKey;
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const claims: Record<string, unknown> = {
      iss: ISSUER,
      aud: AUDIENCE,
      sub: accountId,
      role: ROLE_NAME_BY_VALUE.get(account.role),
      tier: TIER_NAME_BY_VALUE.get(account.tier),
      cep: this.epochOf(accountId),
      iat: now,
      jti: nextId("jti"),
      ...(options.omitExp ? {} : { exp: now + (options.ttlSeconds ?? 900) }),
      ...options.claims,
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "EdDSA", typ: "at+jwt", kid: key.kid, ...options.header })
      .sign(key.privateKey);
  }

  private record(method: string, context: HandlerContext): Principal | undefined {
    this.calls.set(method, this.count(method) + 1);
    const principal = context.values.get(kPrincipal);
    this.principals.push({ method, principal });
    if (this.down.has(method)) throw new ConnectError("identity is down", Code.Unavailable);
    const failure = this.failures.get(method);
    if (failure) throw failure();
    return principal;
  }

  private requireSystem(method: string, context: HandlerContext): void {
    const principal = this.record(method, context);
    if (principal?.role !== "system") throw new ConnectError("system only", Code.PermissionDenied);
  }

  private requireCaller(method: string, context: HandlerContext): Principal {
    const principal = this.record(method, context);
    if (!principal || principal.role === "system") {
      throw new ConnectError("a caller is required", Code.Unauthenticated);
    }
    return principal;
  }

  /** Fixed windows aligned to the clock; one atomic draw across all of a policy's windows. */
  acquire(policy: QuotaPolicy, subject: string, tier: Tier, requested: number) {
    const now = this.clock.now().getTime();
    // Like identity: a custom-tier account's own limits, read at the draw.
    const own = tier === Tier.CUSTOM ? this.accounts.get(subject)?.account.rateLimits : undefined;
    const limits = own ? { minute: Number(own.perMinute), day: Number(own.perDay) } : TIER_QUOTA[tier];
    const definitions =
      policy === QuotaPolicy.ACCOUNT
        ? [
            { name: "minute", ms: MINUTE, limit: limits.minute },
            { name: "day", ms: DAY, limit: limits.day },
          ]
        : policy === QuotaPolicy.ANONYMOUS
          ? [{ name: "minute", ms: MINUTE, limit: ANONYMOUS_PER_MINUTE }]
          : policy === QuotaPolicy.CREDENTIAL_FAILURES
            ? [{ name: "minute", ms: MINUTE, limit: CREDENTIAL_FAILURES_PER_MINUTE }]
            : [{ name: "minute", ms: MINUTE, limit: ADDRESS_AUTH_FAILURES_PER_MINUTE }];
    const windows = definitions.map((definition) => {
      const start = Math.floor(now / definition.ms) * definition.ms;
      const key = `${policy}|${subject}|${definition.name}|${start}`;
      return { ...definition, key, start, used: this.counters.get(key) ?? 0 };
    });
    const granted = Math.max(0, Math.min(requested, ...windows.map((w) => w.limit - w.used)));
    const after = windows.map((w) => {
      this.counters.set(w.key, w.used + granted);
      return create(QuotaWindowSchema, {
        name: w.name,
        limit: BigInt(w.limit),
        remaining: BigInt(w.limit - w.used - granted),
        resetsAt: timestampFromDate(new Date(w.start + w.ms)),
      });
    });
    const binding = after.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    return { granted, binding, windows: after };
  }

  /** Total requests identity has granted to a subject in the current minute. */
  grantedThisMinute(policy: QuotaPolicy, subject: string): number {
    const start = Math.floor(this.clock.now().getTime() / MINUTE) * MINUTE;
    return this.counters.get(`${policy}|${subject}|minute|${start}`) ?? 0;
  }

  private ownKey(principal: Principal, apiKeyId: string): StoredKey {
    const stored = this.keys.get(apiKeyId);
    if (!stored || stored.accountId !== principal.accountId) {
      throw new ConnectError("no such key", Code.NotFound);
    }
    return stored;
  }

  /** The Connect transport for IdentityService (+ Health), with the real interceptors. */
  transport(
    verifier: InternalTokenVerifier,
    clientSide: ReturnType<typeof clientInterceptors>,
    service = "identity",
  ) {
    return createRouterTransport(
      (router) => {
        router.service(Health, {
          check: async () => ({
            status: this.notServing.has(service)
              ? HealthCheckResponse_ServingStatus.NOT_SERVING
              : HealthCheckResponse_ServingStatus.SERVING,
          }),
        });
        if (this.deadLetterService) router.service(DeadLetterService, this.deadLetterService(service));
        router.service(IdentityService, {
          registerAccount: async (request, context) => {
            this.record("RegisterAccount", context);
            if ([...this.accounts.values()].some((a) => a.account.email === request.email)) {
              throw new ConnectError("taken", Code.AlreadyExists);
            }
            const { account, secret } = this.addAccount({ email: request.email, password: request.password });
            account.name = request.name;
            account.organization = request.organization;
            const stored = [...this.keys.values()].find((k) => k.secret === secret)!;
            return { account, apiKey: stored.key, apiKeySecret: secret };
          },
          issueToken: async (request, context) => {
            this.record("IssueToken", context);
            const found = [...this.accounts.values()].find((a) => a.account.email === request.email);
            if (!found || found.password !== request.password) {
              throw new ConnectError("wrong e-mail or password", Code.Unauthenticated);
            }
            const now = this.clock.now();
            return {
              accessToken: await this.token(found.account.id),
              expiresIn: 900n,
              expiresAt: timestampFromDate(new Date(now.getTime() + 900_000)),
            };
          },
          getAccount: async (request, context) => {
            const principal = this.requireCaller("GetAccount", context);
            const id = request.accountId || principal.accountId;
            const found = this.accounts.get(id);
            if (!found) throw new ConnectError("no such account", Code.NotFound);
            return { account: found.account };
          },
          listApiKeys: async (request, context) => {
            const principal = this.requireCaller("ListApiKeys", context);
            const mine = [...this.keys.values()]
              .filter((k) => k.accountId === principal.accountId)
              .filter((k) => request.includeRevoked || !k.key.revokedAt)
              .reverse();
            return {
              apiKeys: mine.slice(request.offset, request.offset + request.limit).map((k) => k.key),
              total: BigInt(mine.length),
            };
          },
          revokeApiKey: async (request, context) => {
            const principal = this.requireCaller("RevokeApiKey", context);
            const stored = this.ownKey(principal, request.apiKeyId);
            if (!stored.key.revokedAt) {
              stored.key.revokedAt = timestampFromDate(this.clock.now());
              this.publish(
                create(WatchRevocationsResponseSchema, {
                  revocation: { case: "apiKeyId", value: stored.key.id },
                }),
              );
            }
            return { apiKey: stored.key };
          },
          updateAccountAccess: async (request, context) => {
            const principal = this.requireCaller("UpdateAccountAccess", context);
            if (principal.role !== "staff") throw new ConnectError("staff only", Code.PermissionDenied);
            const found = this.accounts.get(request.accountId);
            if (!found) throw new ConnectError("no such account", Code.NotFound);
            if ((request.tier === Tier.CUSTOM) !== (request.rateLimits !== undefined))
              throw new ConnectError("rate_limits go with the custom tier", Code.InvalidArgument);
            const { role, tier } = found.account;
            if (request.role !== Role.UNSPECIFIED) found.account.role = request.role;
            if (request.tier !== Tier.UNSPECIFIED) found.account.tier = request.tier;
            if (request.tier !== Tier.UNSPECIFIED) found.account.rateLimits = request.rateLimits;
            if (found.account.role !== role || found.account.tier !== tier) this.raiseEpoch(found.account.id);
            return { account: found.account };
          },
          authenticateApiKey: async (request, context) => {
            this.requireSystem("AuthenticateApiKey", context);
            const stored = [...this.keys.values()].find((k) => k.secret === request.secret);
            if (!stored || stored.key.revokedAt) throw new ConnectError("unknown key", Code.Unauthenticated);
            const { account } = this.accounts.get(stored.accountId)!;
            return {
              principal: create(AuthenticatedPrincipalSchema, {
                accountId: account.id,
                role: account.role,
                tier: account.tier,
              }),
              apiKeyId: stored.key.id,
              credentialsEpoch: BigInt(this.epochOf(account.id)),
            };
          },
          listSigningKeys: async (_request, context) => {
            this.requireSystem("ListSigningKeys", context);
            return {
              issuer: ISSUER,
              audience: AUDIENCE,
              keys: this.signingKeys.map((key) =>
                create(SigningKeySchema, {
                  kid: key.kid,
                  publicJwkJson: JSON.stringify(key.publicJwk),
                  state: key.state,
                  ...(key.retiresAt && { retiresAt: timestampFromDate(key.retiresAt) }),
                }),
              ),
            };
          },
          rotateSigningKey: async (_request, context) => {
            const principal = this.requireCaller("RotateSigningKey", context);
            if (principal.role !== "staff") throw new ConnectError("staff only", Code.PermissionDenied);
            const active = await this.addSigningKey();
            return {
              active: create(SigningKeySchema, {
                kid: active.kid,
                publicJwkJson: JSON.stringify(active.publicJwk),
                state: SigningKeyState.ACTIVE,
              }),
              retiring: [],
            };
          },
          listRevocations: async (_request, context) => {
            this.requireSystem("ListRevocations", context);
            const now = this.clock.now().getTime();
            return {
              epochs: [...this.epochs].map(([accountId, e]) => ({
                accountId,
                epoch: BigInt(e.epoch),
                changedAt: timestampFromDate(e.changedAt),
              })),
              tokens: [...this.revokedTokens]
                .filter(([, t]) => t.expiresAt.getTime() > now)
                .map(([jti, t]) => ({
                  jti,
                  accountId: t.accountId,
                  expiresAt: timestampFromDate(t.expiresAt),
                })),
              accessTokenTtlSeconds: 3600n,
            };
          },
          revokeAccessToken: async (request, context) => {
            this.requireSystem("RevokeAccessToken", context);
            const token = request.token!;
            const entry = { accountId: token.accountId, expiresAt: timestampDate(token.expiresAt!) };
            this.revokedTokens.set(token.jti, entry);
            this.publish(
              create(WatchRevocationsResponseSchema, { revocation: { case: "token", value: token } }),
            );
            return {};
          },
          changePassword: async (request, context) => {
            const principal = this.requireCaller("ChangePassword", context);
            const found = this.accounts.get(principal.accountId)!;
            if (found.password !== request.currentPassword) {
              throw new ConnectError("wrong password", Code.Unauthenticated);
            }
            found.password = request.newPassword;
            this.raiseEpoch(principal.accountId);
            return {};
          },
          watchRevocations: async function* (this: FakeIdentity, _request: unknown, context: HandlerContext) {
            this.requireSystem("WatchRevocations", context);
            const updates = on(this.watchers, "revocation", { signal: context.signal, close: ["end"] });
            yield create(WatchRevocationsResponseSchema, {});
            try {
              for await (const [update] of updates) yield update as WatchRevocationsResponse;
            } catch (error) {
              if (!context.signal.aborted) throw error;
            }
          }.bind(this),
          acquireQuota: async (request, context) => {
            this.requireSystem("AcquireQuota", context);
            if (request.requested < 1 || request.requested > 100) {
              throw new ConnectError("requested must be 1..100", Code.InvalidArgument);
            }
            return this.acquire(request.policy, request.subject, request.tier, request.requested);
          },
        });
      },
      {
        router: {
          interceptors: serverInterceptors({
            logger: this.logger,
            verifier,
            publicProcedures: PUBLIC_PROCEDURES,
          }),
        },
        transport: { interceptors: clientSide },
      },
    );
  }
}

/** Internal-token keys shared by every gateway a test builds (like one deployment). */
export const internalKeys = generateInternalKeyPair().then(async (pair) => ({
  signer: await InternalTokenSigner.create(pair.privateKeyPem, pair.kid),
  verifier: await InternalTokenVerifier.create([pair.publicKeyPem]),
}));

export const silentLogger = createLogger({ service: "gateway-test", level: "silent" });

/** A gateway in front of `identity` (several gateways may share one identity). */
export async function gatewayFor(identity: FakeIdentity, deps: Partial<GatewayAppDeps> = {}) {
  const { signer, verifier } = await internalKeys;
  const clients = createServiceClients(
    (service, interceptors) => identity.transport(verifier, interceptors, service),
    clientInterceptors(signer),
  );
  return createGateway({
    clients,
    logger: silentLogger,
    clock: identity.clock,
    maxBodyBytes: 4096,
    ...deps,
  });
}

// The request helpers live in requests.ts; the fake's tests still import them from here.
export { bodyOf, from, json } from "./requests.js";
