/**
 * Cross-origin access for browser clients, off unless PETRI_CORS_ORIGINS lists origins.
 * Only exact listed origins get CORS headers; a preflight (OPTIONS with
 * Access-Control-Request-Method) from one is answered 204 here, before authentication and
 * rate limits (a preflight carries no credentials and must not spend the caller's quota).
 * Every other request, including OPTIONS from an unlisted origin, is handled as usual.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { z } from "zod";

export const CORS_ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
export const CORS_ALLOWED_HEADERS = [
  "Authorization",
  "X-API-Key",
  "Idempotency-Key",
  "Content-Type",
  "X-Request-Id",
  "Traceparent",
] as const;
/** Response headers a browser script may read. */
export const CORS_EXPOSED_HEADERS = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "X-Request-Id",
  "Retry-After",
  "Idempotent-Replayed",
  "Location",
] as const;

/**
 * PETRI_CORS_ORIGINS -> the origins ("https://app.example.org", comma-separated, exact);
 * throws naming the first entry that is not a bare http(s) origin.
 */
export function parseCorsOrigins(text: string | undefined): string[] {
  if (text === undefined || text.trim() === "") return [];
  return text.split(",").map((entry) => {
    const origin = entry.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin)
      throw new Error(`"${origin}" is not an origin (scheme://host[:port], no path or trailing slash)`);
    return origin;
  });
}

/** PETRI_CORS_ORIGINS in a config schema: unset or empty is CORS off. */
export const corsOriginsSchema = z
  .string()
  .default("")
  .transform((text, ctx) => {
    try {
      return parseCorsOrigins(text);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });

export function corsFor(origins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(origins);
  const middleware = cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    allowMethods: [...CORS_ALLOWED_METHODS],
    allowHeaders: [...CORS_ALLOWED_HEADERS],
    exposeHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: 600,
  });
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (origin === undefined || !allowed.has(origin)) return next();
    if (c.req.method === "OPTIONS" && !c.req.header("access-control-request-method")) return next();
    return middleware(c, next);
  };
}
