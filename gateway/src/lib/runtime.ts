/**
 * The gateway's dependencies and its per-process runtime state (verifiers, caches, quota
 * leases), built once per gateway from its deps.
 */
import type { Clock, Logger, Principal, RequestContext } from "@petri/service-kit";
import { AccessTokenVerifier } from "./access-tokens.js";
import { AccountViews } from "./account-views.js";
import { ApiKeyAuthenticator, DEFAULT_API_KEY_CACHE_TTL_MS } from "./api-keys.js";
import { AuthFailureLimiter } from "./auth-failures.js";
import type { ServiceClients } from "./clients.js";
import { drawFromIdentity } from "./quota-draw.js";
import { QuotaLeases } from "./quota-leases.js";
import { RevocationState } from "./revocations.js";
import { ServiceHealth } from "./service-health.js";

export interface GatewayDeps {
  clients: ServiceClients;
  logger: Logger;
  clock: Clock;
  /**
   * Largest accepted request body, with or without Content-Length. Default 1 MiB. The
   * operations of OPERATION_BODY_LIMITS (lib/body-limit.ts) have their own fixed limits.
   */
  maxBodyBytes?: number;
  /** PETRI_TRUST_PROXY: take the source address from the last X-Forwarded-For entry. Default false. */
  trustProxy?: boolean;
  /** How long an API key lookup is cached (and a revocation takes to reach other gateways). Default 30 s. */
  apiKeyCacheTtlMs?: number;
  /** Age after which the access-token signing keys are fetched again. Default 60 s. */
  signingKeysRefreshMs?: number;
  /** Least time between two signing-key fetches caused by unknown kids. Default 5 s. */
  signingKeysMinRefreshMs?: number;
  /** Access-token lifetime identity is configured with (its ACCESS_TOKEN_TTL_SECONDS), published by GET /config. Default 3600 s. */
  accessTokenTtlSeconds?: number;
  /** Whether POST /auth/register accepts new accounts (a /config feature switch). Default true. */
  registrationOpen?: boolean;
  /** How often the whole revocation state is loaded from identity as a safety net. Default 30 s. */
  revocationRefreshMs?: number;
  /** Readiness of this gateway process for GET /readyz (false while draining). Default: always ready. */
  ready?: () => boolean;
  /** How long GET /auth/me may reuse an account's view (a custom tier's new limits take this long to show on other gateways). Default 5 s. */
  accountViewTtlMs?: number;
  /** How long GET /health reuses the services' readiness it last asked for. Default 1 s. */
  healthMaxAgeMs?: number;
}

/** The gateway's per-process state, built once from the deps. */
export interface GatewayRuntime {
  deps: GatewayDeps;
  clients: ServiceClients;
  logger: Logger;
  clock: Clock;
  maxBodyBytes: number;
  trustProxy: boolean;
  accessTokenTtlSeconds: number;
  registrationOpen: boolean;
  ready: () => boolean;
  accessTokens: AccessTokenVerifier;
  apiKeys: ApiKeyAuthenticator;
  revocations: RevocationState;
  accountViews: AccountViews;
  quota: QuotaLeases;
  authFailures: AuthFailureLimiter;
  health: ServiceHealth;
}

export interface GatewayEnv {
  Variables: {
    deps: GatewayDeps;
    runtime: GatewayRuntime;
    requestId: string;
    /** The request's trace context (create-app.ts), for lines written outside its scope. */
    requestContext: RequestContext;
    /** The rate-limit subject of this request's source. */
    sourceAddress: string;
    /** Set by the guard on authenticated operations. */
    principal: Principal;
  };
}

export const DEFAULT_MAX_BODY_BYTES = 1_048_576;
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3_600;

export function createRuntime(deps: GatewayDeps): GatewayRuntime {
  const { clients, clock, logger } = deps;
  const draw = drawFromIdentity(clients.identity);
  const accessTokenTtlSeconds = deps.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS;
  const revocations = new RevocationState({
    identity: clients.identity,
    clock,
    logger,
    tokenTtlSeconds: accessTokenTtlSeconds,
    ...(deps.revocationRefreshMs !== undefined && { refreshIntervalMs: deps.revocationRefreshMs }),
  });
  return {
    deps,
    clients,
    logger,
    clock,
    maxBodyBytes: deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    trustProxy: deps.trustProxy ?? false,
    accessTokenTtlSeconds,
    registrationOpen: deps.registrationOpen ?? true,
    ready: deps.ready ?? (() => true),
    accessTokens: new AccessTokenVerifier({
      identity: clients.identity,
      clock,
      logger,
      revocations,
      ...(deps.signingKeysRefreshMs !== undefined && { refreshIntervalMs: deps.signingKeysRefreshMs }),
      ...(deps.signingKeysMinRefreshMs !== undefined && {
        minRefreshIntervalMs: deps.signingKeysMinRefreshMs,
      }),
    }),
    apiKeys: new ApiKeyAuthenticator({
      identity: clients.identity,
      clock,
      logger,
      ttlMs: deps.apiKeyCacheTtlMs ?? DEFAULT_API_KEY_CACHE_TTL_MS,
      revocations,
    }),
    revocations,
    accountViews: new AccountViews({
      identity: clients.identity,
      clock,
      revocations,
      ...(deps.accountViewTtlMs !== undefined && { ttlMs: deps.accountViewTtlMs }),
    }),
    quota: new QuotaLeases({ draw, clock }),
    authFailures: new AuthFailureLimiter({ draw, clock }),
    health: new ServiceHealth({
      health: clients.health,
      clock,
      ...(deps.healthMaxAgeMs !== undefined && { maxAgeMs: deps.healthMaxAgeMs }),
    }),
  };
}
