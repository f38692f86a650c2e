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
 *
 * The limit is the gateway's default (PETRI_MAX_BODY_BYTES) except for the operations in
 * OPERATION_BODY_LIMITS, whose limit is fixed by what they carry.
 */
import type { Context, MiddlewareHandler } from "hono";

const KIB = 1024;
const MIB = 1024 * KIB;

/** Operations ("METHOD /path/{param}") whose body limit replaces the default, in bytes. */
export const OPERATION_BODY_LIMITS: Readonly<Record<string, number>> = {
  // Results carry the raw data files, photos and lab notebook base64-encoded in the body
  // (SPEC.md, submit). The service accepts 25 MiB of decoded files, which with line-wrapped
  // base64 and the other fields is at most about 39.1 MiB of text (its maxSubmitBodyBytes);
  // 40 MiB here lets every submission the service would accept through.
  "POST /operator/jobs/{experiment_id}/submit": 40 * MIB,
  // A lab profile is declarations only (intake-model.md); a few KiB even for a large core.
  "POST /operator/profile": 64 * KIB,
};

/** The body limit of an operation (undefined: an unknown route) given the default. */
export function bodyLimitOf(operation: string | undefined, defaultBytes: number): number {
  return (operation !== undefined && OPERATION_BODY_LIMITS[operation]) || defaultBytes;
}

export function bodyLimit(
  limitFor: (c: Context) => number,
  tooLarge: (c: Context, maxBytes: number) => Response,
): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const maxBytes = limitFor(c);
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      return Number(declared) > maxBytes ? tooLarge(c, maxBytes) : next();
    }
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) return tooLarge(c, maxBytes);
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
