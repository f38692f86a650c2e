import { OpenAPIHono } from "@hono/zod-openapi";
import { type Clock, DomainError, type Logger, domainErrorToConnectError } from "@petri/service-kit";
import type { ErrorHandler, Hono, MiddlewareHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { accessLog } from "./access-log.js";
import { bodyLimit, bodyLimitOf } from "./body-limit.js";
import { connectErrorToHttp, isConnectError, retryAfterSeconds } from "./connect-errors.js";
import { corsFor } from "./cors.js";
import { guard, matchedOperation } from "./guard.js";
import { httpMetrics } from "./http-metrics.js";
import { ApiError, RETRY_AFTER_UNAVAILABLE_SECONDS, RespondWith, errorBody } from "./problem.js";
import { hasRequestBody, isHttp1 } from "./request-body.js";
import { requestHygiene } from "./request-hygiene.js";
import { requestScope } from "./request-scope.js";
import { type GatewayDeps, type GatewayEnv, createRuntime } from "./runtime.js";
import { securityHeaders } from "./security-headers.js";

export {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_MAX_BODY_BYTES,
  type GatewayDeps,
  type GatewayEnv,
  type GatewayRuntime,
  createRuntime,
} from "./runtime.js";

type FieldError = { field: string; code: string; message: string };

/** The runtime's dependencies plus the app's own settings. */
export interface GatewayAppDeps extends GatewayDeps {
  /** Exact origins allowed cross-origin access (PETRI_CORS_ORIGINS); none: CORS off. */
  corsOrigins?: readonly string[];
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export interface RouterOptions {
  /**
   * Also name each offending field as `path` (the experiment routes, whose service reports
   * request-model paths that way): details.errors = [{field, path, code, message}].
   */
  errorPaths?: boolean;
}

/**
 * A router whose validation failures use the public error shape: 422 validation_failed with
 * details.errors = [{field, code, message}], code missing_required or invalid_value (an
 * unknown body field is invalid_value "unknown field").
 */
export function createRouter(options: RouterOptions = {}) {
  return new OpenAPIHono<GatewayEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const errors: FieldError[] = [];
      for (const issue of result.error.issues) {
        const path = issue.path.map(String);
        if (issue.code === "unrecognized_keys") {
          for (const key of issue.keys) {
            errors.push({ field: [...path, key].join("."), code: "invalid_value", message: "unknown field" });
          }
          continue;
        }
        const input = (result as { data?: unknown }).data;
        // An absent required field: zod reports invalid_type, or invalid_value for an enum.
        const missing =
          (issue.code === "invalid_type" || issue.code === "invalid_value") &&
          valueAt(input, issue.path) === undefined;
        errors.push({
          field: path.join("."),
          code: missing ? "missing_required" : "invalid_value",
          message: missing ? "required" : issue.message,
        });
      }
      const listed = options.errorPaths
        ? errors.map(({ field, code, message }) => ({ field, path: field, code, message }))
        : errors;
      return c.json(errorBody("validation_failed", "the request is invalid", { errors: listed }), 422);
    },
  });
}

/** The methods `path` is routed for, from the app's route table (for 405 and Allow). */
function allowedMethods(app: Hono<any>, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue;
    const pattern = route.path
      .split("/")
      .map((segment) =>
        segment.startsWith(":")
          ? "[^/]+"
          : segment === "*"
            ? ".*"
            : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("/");
    if (new RegExp(`^${pattern}$`).test(path)) methods.add(route.method);
  }
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

/**
 * The gateway app: the access line (access-log.ts), security headers, request ids and trace context, default Cache-Control,
 * CORS (when configured), the guard (rate limits and authentication), the body limit, input
 * hygiene (request-hygiene.ts), and one error shape for everything (404, 405 with Allow,
 * 413, 415, 422, 500 with the request id and never a stack).
 */
export function createApp(appDeps: GatewayAppDeps) {
  // Its lines name the gateway in standalone mode too, where the host's logger is shared.
  const deps = { ...appDeps, logger: appDeps.logger.child({ service: "gateway" }) };
  const runtime = createRuntime(deps);
  const app = createRouter();
  const { maxBodyBytes } = runtime;

  // Outermost: the request's id, span and context, then one access line per request, with
  // the status the layers below settled on.
  app.use("*", requestScope(deps, runtime));
  app.use("*", accessLog(deps.logger));
  app.use("*", httpMetrics());
  app.use("*", securityHeaders(runtime.trustProxy));

  app.use("*", responseDefaults());

  // Before the guard: a preflight carries no credentials and spends no quota.
  if (deps.corsOrigins && deps.corsOrigins.length > 0) app.use("*", corsFor(deps.corsOrigins));

  app.use("*", guard());

  app.use(
    "*",
    bodyLimit(
      (c) => bodyLimitOf(matchedOperation(c), maxBodyBytes),
      (c, maxBytes) =>
        c.json(
          errorBody("payload_too_large", `the request body is larger than ${maxBytes} bytes`, {
            max_bytes: maxBytes,
          }),
          413,
        ),
    ),
  );

  // After the body limit: the body it reads is already bounded in size.
  app.use("*", requestHygiene());

  app.notFound(answerNotFound(app));

  app.onError(answerError(deps));

  return app;
}

/**
 * Default Cache-Control (no-store) on every answer, and Connection: close when an HTTP/1.1
 * request was answered without its body being read.
 */
function responseDefaults(): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    // The request as received: the body limit may hand later middleware a rebuilt one.
    const original = c.req.raw;
    const unreadBodyPossible = isHttp1(c.env) && hasRequestBody(c);
    await next();
    // Headers go on the response in place: c.header() after next() would copy the response
    // into a full web Response, which @hono/node-server then has to stream.
    const headers = c.res.headers;
    // Nothing private is ever cacheable unless a route says otherwise (docs assets do).
    if (!headers.has("cache-control")) headers.set("Cache-Control", "no-store");
    if (unreadBodyPossible && !original.bodyUsed) {
      // Answered without reading the body (401, 413 by Content-Length, 429...): the rest of it
      // is still on the wire, so the connection must not carry another request.
      headers.set("Connection", "close");
    }
  };
}

/** 405 with Allow for a path that other methods serve, else 404. */
function answerNotFound(app: ReturnType<typeof createRouter>): NotFoundHandler<GatewayEnv> {
  return (c) => {
    const allowed = allowedMethods(app, c.req.path);
    if (allowed.length > 0) {
      c.header("Allow", allowed.join(", "));
      return c.json(
        errorBody("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}`, { allowed }),
        405,
      );
    }
    return c.json(errorBody("not_found", `no route for ${c.req.method} ${c.req.path}`), 404);
  };
}

/** One error shape for everything: mapped domain and service errors, Hono's 400 and 415, and 500 with the request id. */
function answerError(deps: { logger: Logger; clock: Clock }): ErrorHandler<GatewayEnv> {
  return (error, c) => {
    const requestId = c.get("requestId") ?? "unknown";
    if (error instanceof RespondWith) return error.response;
    if (error instanceof ApiError) {
      if (error.status === 503) c.header("Retry-After", String(RETRY_AFTER_UNAVAILABLE_SECONDS));
      return c.json(errorBody(error.code, error.message, error.details), error.status);
    }
    const mappable = error instanceof DomainError ? domainErrorToConnectError(error) : error;
    if (isConnectError(mappable)) {
      const mapped = connectErrorToHttp(mappable, requestId);
      if (mapped.status >= 500)
        deps.logger.error({ err: error, request_id: requestId }, "service call failed");
      if (mapped.status === 401) c.header("WWW-Authenticate", 'Bearer realm="petri"');
      // A service's own limit (e.g. the webhook test's); the account's limits answer in the guard.
      if (mapped.status === 429)
        c.header("Retry-After", String(retryAfterSeconds(mapped.body, deps.clock.now().getTime())));
      if (mapped.status === 503) c.header("Retry-After", String(RETRY_AFTER_UNAVAILABLE_SECONDS));
      return c.json(mapped.body, mapped.status);
    }
    if (error instanceof HTTPException && error.status === 400) {
      // Hono's validator throws 400 for a body that is not JSON at all.
      return c.json(
        errorBody("validation_failed", "the request body is not valid JSON", {
          errors: [{ field: "", code: "invalid_value", message: "malformed JSON" }],
        }),
        422,
      );
    }
    if (error instanceof HTTPException && error.status === 415) {
      return c.json(
        errorBody("unsupported_media_type", "the request body must be JSON (Content-Type: application/json)"),
        415,
      );
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json(errorBody("bad_request", error.message), error.status);
    }
    deps.logger.error({ err: error, request_id: requestId }, "unhandled gateway error");
    return c.json(errorBody("internal_error", "internal error", { request_id: requestId }), 500);
  };
}
