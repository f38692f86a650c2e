/**
 * The request body limit, with or without Content-Length.
 *
 * With a Content-Length (and no Transfer-Encoding) the length is checked before anything is
 * read; Node's HTTP parser holds the client to it. Without one (chunked), the body is read
 * up to the limit and refused as soon as it passes it, whether or not the route reads
 * bodies; a body under the limit is handed on as the chunks read (never copied into one
 * buffer). A route that reads its body as a stream (STREAMED_BODY_OPERATIONS) is handed a
 * chunked body unread, through a counter that fails the stream with BodyTooLargeError as
 * soon as it passes the limit: the route answers 413 then, so it holds no more than it reads.
 *
 * Hono's bodyLimit does the same but rebuilds the request with `new Request(c.req.raw, …)`,
 * which fails (500) for a chunked body under the limit when @hono/node-server runs with
 * overrideGlobalObjects: false. Rebuilding from url, method and headers works in both modes.
 *
 * The limit is the gateway's default (PETRI_MAX_BODY_BYTES) except for the operations in
 * OPERATION_BODY_LIMITS, whose limit is fixed by what they carry.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedOperation } from "./guard.js";
import { hasRequestBody } from "./request-body.js";

const KIB = 1024;
const MIB = 1024 * KIB;

/** Operations ("METHOD /path/{param}") whose body limit replaces the default, in bytes. */
export const OPERATION_BODY_LIMITS: Readonly<Record<string, number>> = {
  // Results carry the raw data files, photos and lab notebook base64-encoded in the body
  // (docs/api.md, submit). The service accepts 25 MiB of decoded files, which with line-wrapped
  // base64 and the other fields is at most about 39.1 MiB of text (its maxSubmitBodyBytes);
  // 40 MiB here lets every submission the service would accept through.
  "POST /operator/jobs/{experiment_id}/submit": 40 * MIB,
  // A lab profile is declarations only (docs/intake-model.md); a few KiB even for a large core.
  "POST /operator/profile": 64 * KIB,
};

/**
 * Operations whose handler reads the body as a stream, holding only what it is working on
 * (the results submission: D176 in docs/decisions.md).
 */
export const STREAMED_BODY_OPERATIONS: ReadonlySet<string> = new Set([
  "POST /operator/jobs/{experiment_id}/submit",
]);

/** A streamed body (STREAMED_BODY_OPERATIONS) passed its limit while the route read it: 413. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the request body is larger than ${maxBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** The body limit of an operation (undefined: an unknown route) given the default. */
export function bodyLimitOf(operation: string | undefined, defaultBytes: number): number {
  return (operation !== undefined && OPERATION_BODY_LIMITS[operation]) || defaultBytes;
}

export function bodyLimit(
  limitFor: (c: Context) => number,
  tooLarge: (c: Context, maxBytes: number) => Response,
): MiddlewareHandler {
  return async (c, next) => {
    if (!hasRequestBody(c)) return next();
    const maxBytes = limitFor(c);
    const declared = c.req.header("content-length");
    if (declared !== undefined && c.req.header("transfer-encoding") === undefined) {
      return Number(declared) > maxBytes ? tooLarge(c, maxBytes) : next();
    }
    const raw = c.req.raw;
    if (!raw.body) return next();
    if (STREAMED_BODY_OPERATIONS.has(matchedOperation(c) ?? "")) {
      let size = 0;
      const counted = raw.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            size += chunk.byteLength;
            if (size > maxBytes) controller.error(new BodyTooLargeError(maxBytes));
            else controller.enqueue(chunk);
          },
        }),
      );
      c.req.raw = rebuilt(raw, counted);
      return next();
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
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    c.req.raw = rebuilt(raw, body);
    return next();
  };
}

function rebuilt(raw: Request, body: ReadableStream<Uint8Array>): Request {
  return new Request(raw.url, {
    method: raw.method,
    headers: raw.headers,
    body,
    // Required by undici for a stream body; the request is read once, front to back.
    duplex: "half",
    signal: raw.signal,
  } as RequestInit);
}
