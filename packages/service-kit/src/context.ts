/**
 * The per-request context: who is calling and which trace the work belongs to.
 *
 * It lives in an AsyncLocalStorage so that code far from the handler (logs, outbox writes
 * that copy the traceparent, outgoing Connect calls) can read it without threading a
 * parameter through every function. ALS costs some throughput (toolchain.md G13), which is
 * negligible next to the RPC and database work every request here does.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Principal } from "./principal.js";
import { childSpanContext, formatTraceparent } from "./traceparent.js";

export interface RequestContext {
  requestId: string;
  /** The traceparent of the current span (this service's span for the request). */
  traceparent: string;
  traceId: string;
  spanId: string;
  principal?: Principal;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

// Accept a caller's request id only if it is short and plain, so it cannot inject log lines.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function newRequestId(): string {
  return `req_${randomUUID().replaceAll("-", "")}`;
}

/**
 * A context for work that starts here: a new span under `parentTraceparent` (or a new
 * trace), and the caller's request id when it is safe to log (or a new one).
 */
export function createRequestContext(
  init: { parentTraceparent?: string | null; requestId?: string | null; principal?: Principal } = {},
): RequestContext {
  const trace = childSpanContext(init.parentTraceparent);
  const requestId = init.requestId && SAFE_REQUEST_ID.test(init.requestId) ? init.requestId : newRequestId();
  const context: RequestContext = {
    requestId,
    traceparent: formatTraceparent(trace),
    traceId: trace.traceId,
    spanId: trace.spanId,
  };
  if (init.principal) context.principal = init.principal;
  return context;
}

/** Runs `fn` with the current context plus `principal` (starting a context if none). */
export function runWithPrincipal<T>(principal: Principal, fn: () => T): T {
  const current = storage.getStore() ?? createRequestContext();
  return storage.run({ ...current, principal }, fn);
}

/**
 * Wraps an async iterable so each step runs inside `context`. Connect returns a
 * server-streaming response as a lazy iterable that the protocol layer pulls later, outside
 * the interceptor's ALS scope; without this, a streaming handler would see no context.
 */
export function iterateWithRequestContext<T>(
  context: RequestContext,
  source: AsyncIterable<T>,
): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      const iterator = storage.run(context, () => source[Symbol.asyncIterator]());
      const step: AsyncIterator<T> = {
        next: (...args: [] | [unknown]) => storage.run(context, () => iterator.next(...args)),
      };
      if (iterator.return)
        step.return = (value?: unknown) => storage.run(context, () => iterator.return!(value));
      if (iterator.throw)
        step.throw = (error?: unknown) => storage.run(context, () => iterator.throw!(error));
      return step;
    },
  };
}

/** The W3C traceparent of the operation in progress, for events it causes. */
export function currentTraceparent(): string | undefined {
  return storage.getStore()?.traceparent;
}
