/**
 * The gateway's front door: rate limits and authentication, in one middleware, before any
 * body is read. For each request:
 *
 *   1. /healthz and /readyz pass untouched (exempt).
 *   2. The source address is the socket's peer (X-Forwarded-For only with PETRI_TRUST_PROXY).
 *   3. A request carrying credentials (Authorization, X-API-Key, or the body of
 *      POST /auth/token) from an address over its failed-authentication ceiling, or with a
 *      credential blocked at this address: 429 (POST /auth/token checks its e-mail's block
 *      once the body is read, in its handler).
 *   4. Public operations, unknown routes (404/405 follow) and requests without credentials
 *      draw from the address's ANONYMOUS quota; then public operations run, a request
 *      without credentials is 401 and one with both headers is 400 conflicting_credentials.
 *   5. Otherwise the credential is verified (JWT locally, API key from cache or identity).
 *      A failure draws 1 from the credential's CREDENTIAL_FAILURES quota at this address
 *      and 1 from the address's AUTH_FAILURES ceiling, and is 401 (429 once either is over).
 *   6. The account's quota (ACCOUNT policy, per account and tier, not per key) is drawn
 *      from the local lease; over the limit: 429.
 *   7. The handler runs with the principal in the request context, so its service calls
 *      carry the caller's internal token.
 *
 * Normally no step calls a service: keys are cached, tokens are verified locally, quota is
 * spent from leases. A quota draw identity cannot answer is 503 unavailable (fail closed).
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { QuotaPolicy } from "@petri/contracts/identity";
import {
  type Principal,
  createRequestContext,
  currentRequestContext,
  runWithRequestContext,
} from "@petri/service-kit";
import { TIER_BY_NAME } from "@petri/contracts/vocabulary";
import { PUBLIC_OPERATIONS, RATE_LIMIT_EXEMPT_OPERATIONS, operationKey } from "./access.js";
import type { GatewayEnv, GatewayRuntime } from "./create-app.js";
import { type AuthAttempt, type FailureDecision, headerCredential } from "./auth-failures.js";
import { CredentialRejectedError } from "./credential-errors.js";
import { countRateLimitRefusal } from "./rate-limit-metrics.js";
import { RETRY_AFTER_UNAVAILABLE_SECONDS, errorBody } from "./problem.js";
import type { QuotaDecision, QuotaKey } from "./quota-draw.js";
import { sourceAddress } from "./source-address.js";

const PUBLIC = new Set<string>(PUBLIC_OPERATIONS);
const EXEMPT = new Set<string>(RATE_LIMIT_EXEMPT_OPERATIONS);
const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-_.~+/]+=*)[ \t]*$/i;

type Ctx = Context<GatewayEnv>;

// Routes live as long as the app: each one's operation key is built once.
const operationKeys = new WeakMap<object, string>();

/** "GET /auth/api-keys/{api_key_id}" for the route this request matched, or undefined. */
export function matchedOperation(c: Context): string | undefined {
  const route = matchedRoutes(c).find((r) => r.method !== "ALL");
  if (!route) return undefined;
  let key = operationKeys.get(route);
  if (key === undefined) {
    key = operationKey(route.method, route.path);
    operationKeys.set(route, key);
  }
  return key;
}

// A keep-alive connection carries many requests from one peer: its address is normalised once.
const peerSubjects = new WeakMap<object, string>();

/** The rate-limit subject of this request's source (see source-address.ts). */
function requestSource(c: Context, trustProxy: boolean): string {
  const forwardedFor = trustProxy ? c.req.header("x-forwarded-for") : undefined;
  if (forwardedFor !== undefined) return sourceAddress(peerAddress(c), forwardedFor, trustProxy);
  const socket = (c.env as { incoming?: { socket?: object } } | undefined)?.incoming?.socket;
  if (socket === undefined) return sourceAddress(peerAddress(c), undefined, trustProxy);
  let subject = peerSubjects.get(socket);
  if (subject === undefined) {
    subject = sourceAddress(peerAddress(c), undefined, trustProxy);
    peerSubjects.set(socket, subject);
  }
  return subject;
}

function peerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined; // no socket (app.request() in tests, or a non-Node adapter)
  }
}

/** Sets X-RateLimit-Limit / -Remaining / -Reset (epoch seconds). */
export function setRateLimitHeaders(c: Context, decision: QuotaDecision): void {
  c.header("X-RateLimit-Limit", String(decision.limit));
  c.header("X-RateLimit-Remaining", String(Math.max(0, decision.remaining)));
  c.header("X-RateLimit-Reset", String(Math.ceil(decision.resetAt / 1000)));
}

export function rateLimited(c: Ctx, decision: QuotaDecision, message: string): Response {
  const now = c.get("runtime").clock.now().getTime();
  setRateLimitHeaders(c, decision);
  c.header("Retry-After", String(Math.max(1, Math.ceil((decision.resetAt - now) / 1000))));
  return c.json(
    errorBody("rate_limit_exceeded", message, {
      limit: decision.limit,
      reset: Math.ceil(decision.resetAt / 1000),
      window: decision.window,
    }),
    429,
  );
}

export function unauthorized(
  c: Ctx,
  message = "missing or invalid credentials",
  invalidToken = false,
): Response {
  c.header(
    "WWW-Authenticate",
    invalidToken ? 'Bearer realm="petri", error="invalid_token"' : 'Bearer realm="petri"',
  );
  return c.json(errorBody("unauthorized", message), 401);
}

function limiterUnavailable(c: Ctx, error: unknown): Response {
  c.get("runtime").logger.error({ err: error, request_id: c.get("requestId") }, "quota draw failed");
  c.header("Retry-After", String(RETRY_AFTER_UNAVAILABLE_SECONDS));
  return c.json(
    errorBody(
      "unavailable",
      "rate limiting is unavailable right now, so the request was not admitted; retry shortly",
    ),
    503,
  );
}

/** Draws one request of `key`; a Response when the request must stop here. */
async function admit(c: Ctx, key: QuotaKey): Promise<Response | undefined> {
  let decision: QuotaDecision;
  try {
    decision = await c.get("runtime").quota.acquire(key);
  } catch (error) {
    return limiterUnavailable(c, error);
  }
  if (!decision.allowed) {
    const principal = key.policy === QuotaPolicy.ACCOUNT ? c.get("principal") : undefined;
    countRateLimitRefusal(principal ? "account" : "anonymous", principal?.tier);
    return rateLimited(
      c,
      decision,
      `rate limit of ${decision.limit} requests per ${decision.window} exceeded`,
    );
  }
  setRateLimitHeaders(c, decision);
  return undefined;
}

function tooManyFailures(c: Ctx, decision: FailureDecision): Response {
  countRateLimitRefusal("auth_failures");
  return rateLimited(
    c,
    decision,
    decision.scope === "address"
      ? "too many failed authentications from this address"
      : "too many failed authentications with this credential from this address",
  );
}

/**
 * The 429 for an attempt whose address, or whose credential at that address, is blocked for
 * failed authentications; undefined when it may be evaluated. `credential` comes from
 * `loginCredential` or `headerCredential`.
 */
export function blockedAuthentication(c: Ctx, credential?: string): Response | undefined {
  const attempt: AuthAttempt = { address: c.get("sourceAddress") };
  if (credential !== undefined) attempt.credential = credential;
  const block = c.get("runtime").authFailures.blocked(attempt);
  return block ? tooManyFailures(c, block) : undefined;
}

/**
 * Counts a failed authentication of `credential` from this request's address and answers
 * it: 401, or 429 when the pair or the address is over its limit. Used by the guard and
 * POST /auth/token.
 */
export async function failedAuthentication(
  c: Ctx,
  credential: string,
  message: string,
  invalidToken = false,
): Promise<Response> {
  const runtime = c.get("runtime");
  let decision: FailureDecision;
  try {
    decision = await runtime.authFailures.recordFailure({ address: c.get("sourceAddress"), credential });
  } catch (error) {
    // The credential was refused either way; the failure just could not be counted.
    runtime.logger.error({ err: error, request_id: c.get("requestId") }, "auth failure draw failed");
    return unauthorized(c, message, invalidToken);
  }
  if (!decision.allowed) return tooManyFailures(c, decision);
  setRateLimitHeaders(c, decision);
  return unauthorized(c, message, invalidToken);
}

async function authenticate(
  runtime: GatewayRuntime,
  authorization: string | undefined,
  apiKey: string | undefined,
) {
  if (authorization !== undefined) {
    const match = BEARER.exec(authorization);
    if (!match) throw new CredentialRejectedError("Authorization is not a Bearer credential");
    return runtime.accessTokens.verify(match[1]!);
  }
  return runtime.apiKeys.authenticate(apiKey ?? "");
}

export function guard(): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const operation = matchedOperation(c);
    if (operation !== undefined && EXEMPT.has(operation)) return next();

    const runtime = c.get("runtime");
    const address = requestSource(c, runtime.trustProxy);
    c.set("sourceAddress", address);
    const authorization = c.req.header("authorization");
    const apiKey = c.req.header("x-api-key");
    const hasCredentialHeader = authorization !== undefined || apiKey !== undefined;

    const credential = headerCredential(authorization, apiKey);
    if (hasCredentialHeader || operation === "POST /auth/token") {
      const blocked = blockedAuthentication(c, hasCredentialHeader ? credential : undefined);
      if (blocked) return blocked;
    }

    const anonymous = operation === undefined || PUBLIC.has(operation) || !hasCredentialHeader;
    const conflicting = authorization !== undefined && apiKey !== undefined;
    if (anonymous || conflicting) {
      const stop = await admit(c, { policy: QuotaPolicy.ANONYMOUS, subject: address });
      if (stop) return stop;
      if (operation === undefined || PUBLIC.has(operation)) return next();
      if (conflicting) {
        return c.json(
          errorBody(
            "conflicting_credentials",
            "send either Authorization or X-API-Key, not both; neither was evaluated",
          ),
          400,
        );
      }
      return unauthorized(c);
    }

    let principal: Principal;
    try {
      principal = await authenticate(runtime, authorization, apiKey);
    } catch (error) {
      if (!(error instanceof CredentialRejectedError)) throw error; // unavailable -> 503 by onError
      runtime.logger.debug({ reason: error.reason, request_id: c.get("requestId") }, "credential refused");
      return failedAuthentication(
        c,
        credential,
        "missing or invalid credentials",
        authorization !== undefined,
      );
    }
    c.set("principal", principal);

    const stop = await admit(c, {
      policy: QuotaPolicy.ACCOUNT,
      subject: principal.accountId,
      tier: TIER_BY_NAME[principal.tier],
    });
    if (stop) return stop;

    // The request's own context (create-app.ts) takes the principal: no second context scope.
    const context = currentRequestContext();
    if (context) {
      context.principal = principal;
      return next();
    }
    await runWithRequestContext(createRequestContext({ requestId: c.get("requestId"), principal }), () =>
      next(),
    );
  };
}
