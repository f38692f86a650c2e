/**
 * Trace context through OpenTelemetry's API: the W3C propagator and the AsyncLocalStorage
 * context manager. Spans are made by `tracer()`; where they go is set by startTracing()
 * (start-tracing.ts). Until then, and when no exporter is configured, no SDK is installed: the
 * API's no-op tracer makes every span a non-recording one that carries its parent's ids, at
 * next to no cost. The ids come from the edge: the gateway starts each request with
 * startEdgeSpan(), which gives a request that arrived without a trace ids of its own, so the
 * request's log lines, its calls, the events it records and their consumers all carry one
 * trace id whether or not anything is exported.
 */
import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type SpanOptions,
  type TextMapGetter,
  type TextMapSetter,
  SpanStatusCode,
  TraceFlags,
  type Tracer,
  context,
  isSpanContextValid,
  propagation,
  trace,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { RandomIdGenerator } from "@opentelemetry/sdk-trace";

export { SpanKind, SpanStatusCode, type Context, type Span };

/** Reads and writes trace context in Fetch API Headers (Connect's and Hono's). */
export const headersGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};
export const headersSetter: TextMapSetter<Headers> = {
  set: (headers, key, value) => headers.set(key, value),
};

/** The instrumentation scope of every span Petri makes itself. */
export const TRACER_NAME = "petri";

let installed = false;

/** Registers the context manager and the propagator, once. */
export function installTraceContext(): void {
  if (installed) return;
  installed = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

const edgeIds = new RandomIdGenerator();

/**
 * The span of work entering Petri from outside (a request at the gateway): the tracer's span,
 * or, when it has no ids (nothing is exported and `parent` holds no trace), a non-recording
 * span with fresh ids and the sampled flag off, so that everything under it shares a trace id.
 */
export function startEdgeSpan(name: string, options: SpanOptions, parent: Context): Span {
  const span = tracer().startSpan(name, options, parent);
  if (isSpanContextValid(span.spanContext())) return span;
  return trace.wrapSpanContext({
    traceId: edgeIds.generateTraceId(),
    spanId: edgeIds.generateSpanId(),
    traceFlags: TraceFlags.NONE,
  });
}

/** Asked for on each use: startTracing() may replace the provider after start-up. */
export function tracer(): Tracer {
  installTraceContext();
  return trace.getTracer(TRACER_NAME);
}

/** The context a W3C traceparent (and tracestate) continues; the root context when absent or malformed. */
export function contextFromTraceparent(
  traceparent: string | null | undefined,
  tracestate?: string | null,
): Context {
  if (!traceparent) return ROOT_CONTEXT;
  installTraceContext();
  const carrier: Record<string, string> = { traceparent };
  if (tracestate) carrier.tracestate = tracestate;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** The W3C traceparent of a context's span (the active one by default), to store or send on. */
export function traceparentOf(ctx: Context = context.active()): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent;
}

/** The ids of the active span, for log lines; undefined outside any span. */
export function currentTraceIds(): { traceId: string; spanId: string } | undefined {
  const spanContext = trace.getSpanContext(context.active());
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}

/** Is the active span being recorded (exported)? Lets hot paths skip optional spans. */
export function activeSpanRecording(): boolean {
  return trace.getActiveSpan()?.isRecording() ?? false;
}

/** Runs `fn` with `span` active; the span ends when `fn` settles, an error marking it failed. */
export async function inSpan<T>(span: Span, parent: Context, fn: () => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), fn);
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Marks a span failed with the error's type and message (never its data). */
export function failSpan(span: Span, error: unknown): void {
  if (!span.isRecording()) return;
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
  span.setAttribute("error.type", error instanceof Error ? error.constructor.name : typeof error);
}
