/**
 * The request body limit, with or without Content-Length (reliability-test-plan U1).
 *
 * With a Content-Length (and no Transfer-Encoding) the length is checked before anything is
 * read; Node's HTTP parser holds the client to it. Without one (chunked), the body is read
 * up to the limit and refused as soon as it passes it, whether or not the route reads
 * bodies; a body under the limit is handed on as a buffer.
 *
 * Hono's bodyLimit does the same but rebuilds the request with `new Request(c.req.raw, …)`,
 * which fails (500) for a chunked body under the limit when @hono/node-server runs with
 * overrideGlobalObjects: false. Rebuilding from url, method and headers works in both modes.
 */
import type { Context, MiddlewareHandler } from "hono";

export function bodyLimit(maxBytes: number, tooLarge: (c: Context) => Response): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      return Number(declared) > maxBytes ? tooLarge(c) : next();
    }
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) return tooLarge(c);
      chunks.push(value);
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    c.req.raw = new Request(raw.url, { method: raw.method, headers: raw.headers, body, signal: raw.signal });
    return next();
  };
}
