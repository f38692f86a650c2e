/**
 * Spans of Connect calls: a client span around each outgoing call, its context sent in the
 * `traceparent` header by the W3C propagator, and a server span continuing it in the callee.
 * HTTP/2 calls are not covered by OpenTelemetry's http instrumentation, so the interceptors
 * (interceptors/trace.ts) make these with the API. Attributes follow the RPC semantic conventions.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
} from "@opentelemetry/api";
import { headersGetter, headersSetter, tracer } from "./trace-context.js";

interface CallDescription {
  service: { typeName: string };
  method: { name: string };
  header: Headers;
}

/** A call's span and the context it is active in; end() once the call (or its stream) ended. */
export interface RpcSpan {
  readonly context: Context;
  end(error?: unknown): void;
}

// A server span is failed only by codes that are the server's fault (semantic conventions).
const SERVER_FAULTS = new Set<Code>([
  Code.Unknown,
  Code.DeadlineExceeded,
  Code.Unimplemented,
  Code.Internal,
  Code.Unavailable,
  Code.DataLoss,
]);

function attributesOf(call: CallDescription): Attributes {
  return {
    "rpc.system": "connect_rpc",
    "rpc.service": call.service.typeName,
    "rpc.method": call.method.name,
  };
}

function rpcSpan(span: Span, spanContext: Context, kind: SpanKind): RpcSpan {
  let ended = false;
  return {
    context: spanContext,
    end(error?: unknown) {
      if (ended) return;
      ended = true;
      if (error !== undefined && span.isRecording()) {
        const connectError = ConnectError.from(error);
        span.setAttribute("rpc.connect_rpc.error_code", codeToString(connectError.code));
        if (kind === SpanKind.CLIENT || SERVER_FAULTS.has(connectError.code))
          span.setStatus({ code: SpanStatusCode.ERROR, message: connectError.rawMessage });
      }
      span.end();
    },
  };
}

/** The callee's span, continuing the caller's trace from the request headers (or a new trace). */
export function startRpcServerSpan(call: CallDescription): RpcSpan {
  const parent = propagation.extract(ROOT_CONTEXT, call.header, headersGetter);
  const span = tracer().startSpan(
    `${call.service.typeName}/${call.method.name}`,
    { kind: SpanKind.SERVER, attributes: attributesOf(call) },
    parent,
  );
  return rpcSpan(span, trace.setSpan(parent, span), SpanKind.SERVER);
}

/** The caller's span under the active one, written into the request headers as their traceparent. */
export function startRpcClientSpan(call: CallDescription): RpcSpan {
  // A traceparent the caller set itself names the parent explicitly.
  const parent = call.header.has("traceparent")
    ? propagation.extract(context.active(), call.header, headersGetter)
    : context.active();
  const span = tracer().startSpan(
    `${call.service.typeName}/${call.method.name}`,
    { kind: SpanKind.CLIENT, attributes: attributesOf(call) },
    parent,
  );
  const spanContext = trace.setSpan(parent, span);
  propagation.inject(spanContext, call.header, headersSetter);
  return rpcSpan(span, spanContext, SpanKind.CLIENT);
}
