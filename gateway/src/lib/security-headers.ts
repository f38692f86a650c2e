/**
 * Security headers on every response (hono/secure-headers): no Referer leaks, no MIME
 * sniffing, no framing, and a Content-Security-Policy that lets an API response load
 * nothing. Routes that serve pages (the docs) set their own policy, which is kept.
 * Strict-Transport-Security only on requests that came over TLS, directly or (with
 * PETRI_TRUST_PROXY) through a proxy saying X-Forwarded-Proto: https: over plain HTTP it
 * would be meaningless, and a development setup must not pin browsers to HTTPS.
 */
import type { Context, MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";

export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";
export const HSTS = "max-age=31536000; includeSubDomains";

/** True when the client's connection to us (or to the trusted proxy) is TLS. */
export function cameOverTls(c: Context, trustProxy: boolean): boolean {
  const socket = (c.env as { incoming?: { socket?: { encrypted?: boolean } } } | undefined)?.incoming?.socket;
  if (socket?.encrypted === true) return true;
  if (!trustProxy) return false;
  // The proxy in front appends its own value last.
  const forwarded = c.req.header("x-forwarded-proto")?.split(",").at(-1)?.trim().toLowerCase();
  return forwarded === "https";
}

export function securityHeaders(trustProxy: boolean): MiddlewareHandler {
  const common = secureHeaders({
    referrerPolicy: "no-referrer",
    xFrameOptions: "DENY",
    xContentTypeOptions: "nosniff",
    strictTransportSecurity: false,
    overwrite: false,
  });
  return async (c, next) => {
    await common(c, next);
    if (!c.res.headers.has("content-security-policy"))
      c.res.headers.set("Content-Security-Policy", API_CONTENT_SECURITY_POLICY);
    if (cameOverTls(c, trustProxy)) c.res.headers.set("Strict-Transport-Security", HSTS);
  };
}
