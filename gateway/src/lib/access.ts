/**
 * Who may call what.
 *
 * Every operation needs credentials (Authorization: Bearer <access token> or
 * X-API-Key: <key>) except these PUBLIC operations, which carry `security: []` in the
 * OpenAPI document (a test keeps the two lists equal):
 *
 *   GET  /health              readiness of every service
 *   GET  /healthz, /readyz    liveness and readiness of this gateway process (probes)
 *   GET  /config              public bootstrap configuration
 *   GET  /openapi.json        this API's description
 *   GET  /docs, /docs/assets/{file}, /redoc, /redoc/assets/{file}   documentation pages
 *   POST /auth/register       create an account
 *   POST /auth/token          exchange e-mail and password for an access token
 *   POST /auth/token/revoke   end an access token (the token in the body is the credential)
 *   GET  /files/{file_id}     a results file; the signed URL (expires, signature) is the credential
 *
 * Public operations ignore credential headers (they are not evaluated) and are rate-limited
 * per source address (ANONYMOUS quota), except /healthz and /readyz, which are exempt so
 * probes never compete with traffic. An operation's `x-roles` lists the roles allowed to
 * call it ("public" for the list above); a valid caller outside them gets 403 forbidden.
 */
import type { MiddlewareHandler } from "hono";
import { ROLES, type RoleName } from "@petri/contracts/vocabulary";
import { errorBody } from "./problem.js";

export const PUBLIC_OPERATIONS = [
  "GET /health",
  "GET /healthz",
  "GET /readyz",
  "GET /config",
  "GET /openapi.json",
  "GET /docs",
  "GET /docs/assets/{file}",
  "GET /redoc",
  "GET /redoc/assets/{file}",
  "POST /auth/register",
  "POST /auth/token",
  "POST /auth/token/revoke",
  "GET /files/{file_id}",
] as const;

/** Probes of the gateway process itself: no quota, no credentials. */
/**
 * No quota and no rate-limit headers: the probes, and GET /health, whose answer comes from a
 * readiness cached for a second (service-health.ts), so answering it costs less than the quota
 * draw that would limit it (decisions.md, "GET /health outside the anonymous quota").
 */
export const RATE_LIMIT_EXEMPT_OPERATIONS = ["GET /health", "GET /healthz", "GET /readyz"] as const;

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: "http" as const,
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "An access token from POST /auth/token (EdDSA-signed JWT, typ at+jwt). Send either this or X-API-Key, never both (400 conflicting_credentials).",
  },
  apiKeyAuth: {
    type: "apiKey" as const,
    in: "header" as const,
    name: "X-API-Key",
    description:
      "An API key (petri_sk_…) from POST /auth/register or POST /auth/api-keys. Revocation takes effect on every gateway within 5 seconds (normally at once).",
  },
};

type SecurityRequirement = Record<string, string[]>;

/** Either scheme authenticates. */
export const AUTHENTICATED_SECURITY: SecurityRequirement[] = [{ bearerAuth: [] }, { apiKeyAuth: [] }];

/** Spread into createRoute(): callable without credentials. */
export const publicAccess = { security: [] as SecurityRequirement[], "x-roles": ["public"] };

/** Spread into createRoute(): any authenticated account. */
export const authenticatedAccess = { security: AUTHENTICATED_SECURITY, "x-roles": [...ROLES] };

/** Refuses a principal outside `roles` with 403 forbidden (runs before body validation). */
export function requireRole(roles: readonly RoleName[]): MiddlewareHandler {
  return async (c, next) => {
    const principal = c.get("principal") as { role: string } | undefined;
    if (!principal || !(roles as readonly string[]).includes(principal.role)) {
      return c.json(
        errorBody("forbidden", "your account is not allowed to do this", { required_roles: [...roles] }),
        403,
      );
    }
    await next();
  };
}

/** Spread into createRoute(): only these roles (checked here and again by the service). */
export function restrictedTo(...roles: RoleName[]) {
  return { security: AUTHENTICATED_SECURITY, "x-roles": roles, middleware: requireRole(roles) };
}

/** "GET /auth/api-keys/{api_key_id}" from a method and a Hono or OpenAPI path. */
export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`;
}
