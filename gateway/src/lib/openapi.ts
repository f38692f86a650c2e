/**
 * The OpenAPI 3.1 document: shared components (security schemes, headers), JSON request bodies,
 * the standard error responses every operation declares, and the document's top-level fields.
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

/** A JSON request body; an operation that may go without one takes an optionalJsonBody. */
export function jsonBody<S extends z.ZodType>(schema: S) {
  return { required: true, content: { "application/json": { schema } } };
}

export function optionalJsonBody<S extends z.ZodType>(schema: S) {
  return { required: false, content: { "application/json": { schema } } };
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
  /**
   * Other operation-specific errors, by status. A 429 here describes the operation's own
   * limit (a service's) in addition to the account's rate limit; it keeps Retry-After.
   */
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
  const { 429: ownLimit, ...extra } = options.extra ?? {};
  for (const [status, description] of Object.entries(extra)) {
    responses[Number(status)] = error(description, [], rate);
  }
  if (rate.rateLimited) {
    const accountLimit =
      "Too many requests (rate_limit_exceeded, with details.limit and details.reset); also after too many failed authentications with one credential, or from one address";
    responses[429] = error(ownLimit ? `${accountLimit}. ${ownLimit}` : accountLimit, ["Retry-After"], rate);
  }
  responses[500] = error(
    "Internal failure (internal_error, with details.request_id); never a stack trace",
    [],
    rate,
  );
  responses[503] = error(
    "A service, or the rate limiter, is unavailable (unavailable); retry after Retry-After",
    ["Retry-After"],
    rate,
  );
  return responses;
}

/**
 * The errors of an authenticated operation that looks up one resource by the id in its path:
 * its parameters are validated (422), and an id it does not know, or does not show the caller,
 * is 404 (`notFound`).
 */
export function lookupErrors(notFound: string, options: Pick<ErrorResponseOptions, "body" | "extra"> = {}) {
  return errorResponses({ authenticated: true, parameters: true, notFound, ...options });
}

/**
 * How webhooks work, for receivers: the Webhooks tag's description. It restates the
 * notifications service's decisions (docs/decisions: signing secrets, the two signature
 * schemes, the retry schedule, pause and resume); change both together.
 */
const WEBHOOKS_GUIDE = [
  "Events of an experiment are POSTed to its `communication_preferences.webhook_url` (https only; every address of its host must be public, checked again at each connection; redirects are never followed) as `{event, experiment_id, timestamp, data}`: claimed, started, completed (results submitted), issue, approved, disputed. `data` holds the status, the experiment's `version` (to order events that arrive out of order) and links, never results or files.",
  "",
  "**Signing secret.** One per account for all its webhooks: `whsec_` + base64 of 32 random bytes, stored encrypted. Obtain it with `POST /webhooks/secret`, which shows it exactly once (deliveries are signed even before you ask; asking again is 409 `webhook_secret_already_revealed`). Replace it with `POST /webhooks/secret/rotate`: the new secret is shown once and the previous one keeps signing until `previous_valid_until` (24 hours), so during that overlap each delivery carries both signatures. `GET /webhooks/settings` shows the secret's id and dates, never the secret.",
  "",
  "**Signature headers.** `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw body>`, keyed with the secret text exactly as shown (`whsec_` included). Standard Webhooks: `webhook-id` (the delivery id `msg_…`, the same on every retry, replay and resume: deduplicate on it), `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature: v1,<base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{body}>`, keyed with the base64-decoded part after `whsec_`; reject timestamps more than 5 minutes away. During a rotation's overlap `webhook-signature` holds two space-separated `v1,` entries and `X-Service-Signature` two values separated by `, `, newest first: accept when any matches. Compare in constant time.",
  "",
  "**Retries.** A 2xx (status line and headers) within 5 seconds is a success; any other status, a 3xx, a timeout or a connection failure fails the attempt. Attempt 1 is immediate; attempts 2 to 5 follow 1 minute, 5 minutes, 30 minutes and 2 hours after the previous failure (no jitter; 410, 429 and Retry-After are not treated specially). Answer quickly and process asynchronously; tolerate duplicates (the same `webhook-id`).",
  "",
  "**Pause and resume.** The fifth failed attempt of a delivery pauses all of the account's deliveries: it and every later event are held (`paused`), and one e-mail goes to the account. `POST /webhooks/resume` lifts the pause and sends every held delivery at once, each with its original `webhook-id` and a fresh cycle of five attempts. `POST /webhooks/deliveries/{delivery_id}/replay` sends any one delivery again the same way (not while paused: resume instead).",
  "",
  "**Delivery log.** `GET /webhooks/deliveries` (or `GET /experiments/{experiment_id}/webhook-deliveries`) lists your deliveries with status, attempt count, last response code, latency, failure class and next attempt time; `GET /webhooks/deliveries/{delivery_id}` adds the attempts. `POST /webhooks/test` sends a signed sample to any allowed URL (10 per account per minute).",
].join("\n");

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
      "**Rate limits** are per account (every key and token of an account shares them), per minute and per day by tier; requests without credentials are limited per source address. Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix epoch seconds) for the binding window. Over the limit: 429 `rate_limit_exceeded` with `Retry-After`. After 20 failed authentications in a minute with one credential (an e-mail at `POST /auth/token`, an API key, a token) from one address, that credential gets 429 there, even when right, until the window resets; other credentials from the address are not affected. After 1,000 failed authentications in a minute from one address, every request from it that carries credentials gets 429 until the window resets.",
      "",
      "**Operators.** Labs use the `/operator/...` operations. The marketplace and experiments services decide whether the caller is a verified (active) operator, not the role in the credential: an access token issued before staff verified the lab still says `requester` until a new token is issued, and it works for the operator operations all the same.",
      "",
      "**Staff** operations live under `/admin/...` and need the staff role (403 `forbidden` otherwise). The older `/staff/...` paths of the account, signing-key and review operations still answer as deprecated aliases (`deprecated: true`); use `/admin/...`.",
      "",
      "**Webhooks.** An experiment request's `communication_preferences.webhook_url` (https) receives its events (`notification_events`) as `{event, experiment_id, timestamp, data}`. Each account has one signing secret: obtain it once with `POST /webhooks/secret`, rotate it with `POST /webhooks/secret/rotate` (the old one keeps signing for 24 hours). Every delivery carries `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>` and the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature`. A 2xx within 5 seconds is a success; attempts follow after 1 minute, 5 minutes, 30 minutes and 2 hours; the fifth failure pauses the account's deliveries and sends one e-mail, and `POST /webhooks/resume` sends what was held. The Webhooks operations below say more.",
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
    { name: "Webhooks", description: WEBHOOKS_GUIDE },
    {
      name: "Hypotheses",
      description:
        "Your hypothesis library: save hypotheses (by hand, from the engine or from a submitted experiment), list and search them, edit drafts, archive, and turn one into an experiment",
    },
    {
      name: "Hypothesis engine",
      description:
        "Hypothesis generation under /cloud-labs/engine: start a run and poll it (or ask synchronously), edit the drafted hypothesis, then save it with POST /hypotheses. The default engine is an offline rules engine: deterministic, not literature-grounded, and it cites nothing. Deployments may add an OpenAI-compatible LLM (which phrases the hypothesis) and a literature provider (Europe PMC; every source's DOI is resolved and its registered title checked before it is shown).",
    },
    {
      name: "Cloud labs",
      description:
        "Cloud labs under /cloud-labs: the providers (SLL and Autoprotocol labs) and what they run; interpret an intake, translate it into a runnable protocol, validate it against a provider; send a stored experiment to a lab and follow the submission (pending, submitted, queued, running, completed, failed, cancelled). The bundled providers are Petri's sandbox labs: simulated, with results labelled as such, unless a deployment connects a real lab.",
    },
    {
      name: "Admin",
      description:
        "Staff only, under /admin: accounts, signing keys, the review queue, operator verification, disputes, the ledger, sent e-mail and accounts' webhook delivery logs. The /staff/... paths are deprecated aliases.",
    },
    { name: "System", description: "Health, probes and public configuration" },
    { name: "Docs", description: "This API's description and documentation pages" },
  ],
};

type Json = unknown;

function isNullableReference(allOf: Json[]): boolean {
  const [reference, nullable, ...rest] = allOf as Array<Record<string, Json>>;
  return (
    rest.length === 0 &&
    typeof reference?.$ref === "string" &&
    Object.keys(reference).length === 1 &&
    Array.isArray(nullable?.type) &&
    nullable.type.includes("null")
  );
}

/**
 * zod-to-openapi renders a nullable registered schema (`Ref.nullable()`) as
 * `allOf: [{$ref}, {type: [object, null]}]`, which null can never satisfy (allOf needs the
 * referenced object too). This rewrites every such node, wherever it is, as
 * `anyOf: [{$ref}, {type: null}]`, keeping its description and other keywords.
 */
export function nullableReferences<T>(node: T): T {
  if (Array.isArray(node)) return node.map(nullableReferences) as T;
  if (node === null || typeof node !== "object") return node;
  const object = node as Record<string, Json>;
  if (Array.isArray(object.allOf) && isNullableReference(object.allOf)) {
    const { allOf, ...outer } = object;
    const [reference, nullable] = allOf as Array<Record<string, Json>>;
    const { type: _type, ...keywords } = nullable!;
    return nullableReferences({
      ...outer,
      ...keywords,
      anyOf: [reference, { type: "null" }],
    }) as T;
  }
  return Object.fromEntries(
    Object.entries(object).map(([key, value]) => [key, nullableReferences(value)]),
  ) as T;
}

/** The gateway's OpenAPI 3.1 document, as served at /openapi.json and committed. */
export function buildDocument(app: OpenAPIHono<any>) {
  return nullableReferences(app.getOpenAPI31Document(DOCUMENT_CONFIG));
}
