/**
 * Questions about the request's body that the middleware ask on every request, answered
 * without making @hono/node-server build a full web Request. Its light Request answers
 * method, url and headers from Node's IncomingMessage; the `body` getter (and anything else
 * outside those) constructs a complete undici Request with a web stream over the socket, and
 * every later read goes through that stream instead of the direct buffer read: a measurable
 * share of a GET's CPU.
 */
import type { Context } from "hono";

/** True for @hono/node-server HTTP/1.x requests (HTTP/2 forbids a Connection header). */
export function isHttp1(env: unknown): boolean {
  const incoming = (env as { incoming?: { httpVersionMajor?: number } } | undefined)?.incoming;
  return incoming?.httpVersionMajor === 1;
}

/**
 * Whether the request has a body to read, as `c.req.raw.body !== null` says. Over HTTP/1
 * that is decided by the message framing (RFC 9112 section 6.3: a request has a body when it
 * carries Content-Length or Transfer-Encoding), and @hono/node-server gives GET and HEAD no
 * body whatever they carry. Elsewhere (HTTP/2, app.request() in tests) the body is asked.
 */
export function hasRequestBody(c: Context): boolean {
  if (!isHttp1(c.env)) return c.req.raw.body !== null;
  const method = c.req.method;
  if (method === "GET" || method === "HEAD") return false;
  return c.req.header("content-length") !== undefined || c.req.header("transfer-encoding") !== undefined;
}
