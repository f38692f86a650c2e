import { pooledRandomBytes } from "./random-pool.js";

/**
 * W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/):
 *   version "-" trace-id "-" parent-id "-" trace-flags
 *   00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01
 * We always emit version 00. We parse version 00 strictly and, as the spec asks, later
 * versions by their first four fields, so a newer upstream does not break our traces.
 */
export interface TraceContext {
  /** 32 lowercase hex characters (16 bytes), never all zeros. */
  traceId: string;
  /** 16 lowercase hex characters (8 bytes), never all zeros: the caller's span. */
  spanId: string;
  /** Trace flags byte; bit 0 is "sampled". */
  flags: number;
}

const VERSION_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
// Future versions: same first four fields; more fields may follow after a "-".
const FUTURE_VERSION = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZEROS = /^0+$/;

/** Returns undefined for anything malformed; callers then start a new trace. */
export function parseTraceparent(header: string | null | undefined): TraceContext | undefined {
  if (!header) return undefined;
  const text = header.trim();
  let traceId: string | undefined;
  let spanId: string | undefined;
  let flags: string | undefined;
  const v00 = VERSION_00.exec(text);
  if (v00) {
    [, traceId, spanId, flags] = v00;
  } else {
    const future = FUTURE_VERSION.exec(text);
    // "ff" is forbidden; "00" must match the strict form above (no trailing fields).
    if (!future || future[1] === "ff" || future[1] === "00") return undefined;
    [, , traceId, spanId, flags] = future;
  }
  if (!traceId || !spanId || !flags) return undefined;
  if (ALL_ZEROS.test(traceId) || ALL_ZEROS.test(spanId)) return undefined;
  return { traceId, spanId, flags: Number.parseInt(flags, 16) };
}

export function formatTraceparent(context: TraceContext): string {
  const flags = (context.flags & 0xff).toString(16).padStart(2, "0");
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

function randomNonZeroHex(bytes: number): string {
  // An all-zero id is invalid; with 8+ random bytes it never happens in practice, but a
  // loop costs nothing and makes the guarantee unconditional.
  for (;;) {
    const hex = pooledRandomBytes(bytes).toString("hex");
    if (!ALL_ZEROS.test(hex)) return hex;
  }
}

export function newTraceId(): string {
  return randomNonZeroHex(16);
}

export function newSpanId(): string {
  return randomNonZeroHex(8);
}

/** Starts a new trace (sampled by default: we have no sampler, and logs want the ids). */
export function generateTraceparent(sampled = true): string {
  return formatTraceparent({ traceId: newTraceId(), spanId: newSpanId(), flags: sampled ? 1 : 0 });
}

/**
 * The traceparent of a new span under `traceparent`: same trace and flags, fresh span id.
 * A malformed parent starts a new trace rather than failing the request.
 */
export function childSpan(traceparent: string | null | undefined): string {
  return formatTraceparent(childSpanContext(traceparent));
}

/** childSpan's fields, for callers that need them as well as the header (no parse back). */
export function childSpanContext(traceparent: string | null | undefined): TraceContext {
  const parent = parseTraceparent(traceparent);
  if (!parent) return { traceId: newTraceId(), spanId: newSpanId(), flags: 1 };
  return { traceId: parent.traceId, spanId: newSpanId(), flags: parent.flags };
}
