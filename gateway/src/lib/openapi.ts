/**
 * The OpenAPI 3.1 document: shared components (security schemes, headers), the standard
 * error responses every operation declares, and the document's top-level fields.
 */
import type { OpenAPIHono, z } from "@hono/zod-openapi";
import { AUTHENTICATED_SECURITY, SECURITY_SCHEMES } from "./access.js";
import { ErrorBodySchema } from "./problem.js";

export const API_VERSION = "0.1.0";

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const HEADER_COMPONENTS = {
  "X-RateLimit-Limit": {
    description:
      "Requests allowed in the binding window (the per-minute or per-day window with fewer requests left). Sent on every response except /healthz and /readyz.",
    schema: { type: "integer" as const, minimum: 0 },
  },
  "X-RateLimit-Remaining": {
    description: "Requests left in the binding window. Never increases within a window.",
    schema: { type: "integer" as const, minimum: 0 },
  },
  "X-RateLimit-Reset": {
    description: "When the binding window resets, as Unix epoch seconds (like GitHub; not a delta).",
    schema: { type: "integer" as const },
  },
  "Retry-After": {
    description: "Seconds to wait before retrying.",
    schema: { type: "integer" as const, minimum: 1 },
  },
  "WWW-Authenticate": {
    description: 'The authentication scheme to use: Bearer realm="petri".',
    schema: { type: "string" as const },
  },
  "Cache-Control": {
    description: "no-store: the response holds a secret or private data and must not be cached.",
    schema: { type: "string" as const, const: "no-store" },
  },
  "X-Request-Id": {
    description: "The request's id (the caller's X-Request-Id when it is safe, otherwise a new one).",
    schema: { type: "string" as const },
  },
};

export function registerSharedComponents(app: OpenAPIHono<any>): void {
  const registry = app.openAPIRegistry;
  registry.registerComponent("securitySchemes", "bearerAuth", SECURITY_SCHEMES.bearerAuth);
  registry.registerComponent("securitySchemes", "apiKeyAuth", SECURITY_SCHEMES.apiKeyAuth);
  for (const [name, header] of Object.entries(HEADER_COMPONENTS)) {
    registry.registerComponent("headers", name, header);
  }
}

type HeaderName = keyof typeof HEADER_COMPONENTS;

function headers(names: HeaderName[]) {
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

const RATE_LIMITED: HeaderName[] = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];

export interface ResponseOptions {
  /** The response carries a secret: Cache-Control: no-store. */
  secret?: boolean;
  /** False for the rate-limit exempt probes (no X-RateLimit-* headers). */
  rateLimited?: boolean;
}

/** The headers every response of an operation carries. */
export function responseHeaders(options: ResponseOptions = {}, extra: HeaderName[] = []) {
  const names: HeaderName[] = ["X-Request-Id", ...extra];
  if (options.rateLimited !== false) names.push(...RATE_LIMITED);
  if (options.secret) names.push("Cache-Control");
  return headers(names);
}

/** A JSON success response with the standard headers. */
export function jsonResponse<S extends z.ZodType>(
  description: string,
  schema: S,
  options: ResponseOptions = {},
) {
  return {
    description,
    headers: responseHeaders(options),
    content: { "application/json": { schema } },
  };
}

function error(description: string, extra: HeaderName[] = [], options: ResponseOptions = {}) {
  return {
    description,
    headers: responseHeaders(options, extra),
    content: { "application/json": { schema: ErrorBodySchema } },
  };
}

export interface ErrorResponseOptions {
  /** Needs credentials: 400 conflicting_credentials, 401, 403. */
  authenticated: boolean;
  /** Takes a JSON body: 413, 415, 422. */
  body?: boolean;
  /** Validates query or path parameters: 422. */
  parameters?: boolean;
  /** Names a resource by id: 404. */
  notFound?: string;
  /** Other operation-specific errors, by status. */
  extra?: Record<number, string>;
  /** False for the rate-limit exempt probes. */
  rateLimited?: boolean;
}

/** The error responses an operation declares (every one has the Error body). */
export function errorResponses(options: ErrorResponseOptions) {
  const rate: ResponseOptions = { rateLimited: options.rateLimited !== false };
  const responses: Record<number, ReturnType<typeof error>> = {};
  if (options.authenticated) {
    responses[400] = error("Both Authorization and X-API-Key were sent (conflicting_credentials)", [], rate);
    responses[401] = error("Missing or invalid credentials (unauthorized)", ["WWW-Authenticate"], rate);
    responses[403] = error("Valid credentials without permission for this operation (forbidden)", [], rate);
  }
  if (options.notFound) responses[404] = error(options.notFound, [], rate);
  if (options.body) {
    responses[413] = error("The body is larger than the limit (payload_too_large)", [], rate);
    responses[415] = error("The body is not application/json (unsupported_media_type)", [], rate);
  }
  if (options.body || options.parameters) {
    responses[422] = error(
      "The request is invalid: malformed JSON, a schema violation or an unknown field (validation_failed, with details.errors per field)",
      [],
      rate,
    );
  }
  for (const [status, description] of Object.entries(options.extra ?? {})) {
    responses[Number(status)] = error(description, [], rate);
  }
  if (rate.rateLimited) {
    responses[429] = error(
      "Too many requests (rate_limit_exceeded, with details.limit and details.reset); also after too many failed authentications from one address",
      ["Retry-After"],
      rate,
    );
  }
  responses[500] = error(
    "Internal failure (internal_error, with details.request_id); never a stack trace",
    [],
    rate,
  );
  responses[503] = error(
    "A service, or the rate limiter, is unavailable (unavailable); retry shortly",
    [],
    rate,
  );
  return responses;
}

export const DOCUMENT_CONFIG = {
  openapi: "3.1.0",
  info: {
    title: "Petri API",
    version: API_VERSION,
    description: [
      "The Petri experiment marketplace: experiment requests, verified labs, results, hypotheses, cloud-lab protocols, signed webhooks.",
      "",
      "**Authentication.** Send `Authorization: Bearer <access token>` (POST /auth/token) or `X-API-Key: <key>` (POST /auth/register, POST /auth/api-keys); both at once is 400 `conflicting_credentials`. Missing or invalid credentials are 401 `unauthorized` with `WWW-Authenticate: Bearer`; valid credentials without permission are 403 `forbidden`. Operations with `security: []` are public.",
      "",
      "**Rate limits** are per account (every key and token of an account shares them), per minute and per day by tier; requests without credentials are limited per source address. Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix epoch seconds) for the binding window. Over the limit: 429 `rate_limit_exceeded` with `Retry-After`. After 20 failed authentications in a minute, an address gets 429 on every request that carries credentials until the window resets.",
      "",
      "**Operators.** Labs use the `/operator/...` operations. The marketplace and experiments services decide whether the caller is a verified (active) operator, not the role in the credential: an access token issued before staff verified the lab still says `requester` until a new token is issued, and it works for the operator operations all the same.",
      "",
      "**Staff** operations live under `/admin/...` and need the staff role (403 `forbidden` otherwise). The older `/staff/...` paths of the account, signing-key and review operations still answer as deprecated aliases (`deprecated: true`); use `/admin/...`.",
      "",
      '**Errors** always have the body `{"error":{"code","message","details"}}`. Request bodies are JSON (`Content-Type: application/json`, otherwise 415), at most `limits.max_body_bytes` of GET /config (1 MiB by default) or, for the operations in `limits.max_body_bytes_by_operation`, their own limit (results submission 40 MiB, operator profile 64 KiB); otherwise 413, with or without Content-Length, and strict: an unknown field is 422 `validation_failed`.',
    ].join("\n"),
  },
  servers: [{ url: "/", description: "The gateway that serves this document" }],
  security: AUTHENTICATED_SECURITY,
  tags: [
    { name: "Auth", description: "Accounts, access tokens and the current caller" },
    { name: "API keys", description: "The caller's API keys" },
    {
      name: "Experiments",
      description:
        "Experiment requests and their lifecycle: submit, drafts, read, change, cancel, protocol design",
    },
    { name: "Validation", description: "Check or price a request without submitting it" },
    { name: "Templates", description: "Protocol templates a request can reference" },
    {
      name: "Operators",
      description:
        "For labs: the operator profile, the job feed, claiming, starting, reporting issues and submitting results",
    },
    {
      name: "Results",
      description: "For requesters: read the results, approve them (payment is released) or dispute them",
    },
    {
      name: "Files",
      description: "Downloads of results files through the signed, short-lived URLs of a results record",
    },
    {
      name: "Admin",
      description:
        "Staff only, under /admin: accounts, signing keys, the review queue, operator verification, disputes and the ledger. The /staff/... paths are deprecated aliases.",
    },
    { name: "System", description: "Health, probes and public configuration" },
    { name: "Docs", description: "This API's description and documentation pages" },
  ],
};
