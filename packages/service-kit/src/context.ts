/**
 * The per-request context: who is calling, under which request id, and the request's span.
 *
 * It rides in the OpenTelemetry context (one AsyncLocalStorage, the context manager's), so that
 * code far from the handler (logs, outgoing Connect calls) can read it without threading a
 * parameter through every function, and so that spans started below, log lines and the
 * traceparent copied onto outbox rows (currentTraceparent) all belong to the request. One
 * AsyncLocalStorage serves both: each one enabled adds its own work to every async resource
 * the process creates.
 */
import { randomUUID } from "node:crypto";
import { type Context, context as otelContext, createContextKey } from "@opentelemetry/api";
import type { Principal } from "./principal.js";
import { installTraceContext, traceparentOf } from "./tracing/trace-context.js";

export interface RequestContext {
  requestId: string;
  /** The request's span, entered with the context (runWithRequestContext). */
  otel?: Context;
  principal?: Principal;
}

const REQUEST_CONTEXT = createContextKey("petri request context");

// The context manager must exist before the first context is entered or read.
installTraceContext();

export function currentRequestContext(): RequestContext | undefined {
  return otelContext.active().getValue(REQUEST_CONTEXT) as RequestContext | undefined;
}

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return otelContext.with((context.otel ?? otelContext.active()).setValue(REQUEST_CONTEXT, context), fn);
}

// Accept a caller's request id only if it is short and plain, so it cannot inject log lines.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function newRequestId(): string {
  return `req_${randomUUID().replaceAll("-", "")}`;
}

/** A context for work that starts here: the caller's request id when it is safe to log (or a new one). */
export function createRequestContext(
  init: { requestId?: string | null; principal?: Principal; otel?: Context } = {},
): RequestContext {
  const requestId = init.requestId && SAFE_REQUEST_ID.test(init.requestId) ? init.requestId : newRequestId();
  const context: RequestContext = { requestId };
  if (init.otel) context.otel = init.otel;
  if (init.principal) context.principal = init.principal;
  return context;
}

/** Runs `fn` with the current context plus `principal` (starting a context if none). */
export function runWithPrincipal<T>(principal: Principal, fn: () => T): T {
  const current = currentRequestContext() ?? createRequestContext();
  return otelContext.with(otelContext.active().setValue(REQUEST_CONTEXT, { ...current, principal }), fn);
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
      const iterator = runWithRequestContext(context, () => source[Symbol.asyncIterator]());
      const step: AsyncIterator<T> = {
        next: (...args: [] | [unknown]) => runWithRequestContext(context, () => iterator.next(...args)),
      };
      if (iterator.return)
        step.return = (value?: unknown) => runWithRequestContext(context, () => iterator.return!(value));
      if (iterator.throw)
        step.throw = (error?: unknown) => runWithRequestContext(context, () => iterator.throw!(error));
      return step;
    },
  };
}

/** The W3C traceparent of the span in progress, for the events it causes (outbox rows). */
export function currentTraceparent(): string | undefined {
  return traceparentOf();
}
