/** Trace context and request ids across calls, and each server call's access line. */
import { context as otelContext } from "@opentelemetry/api";
import type { Interceptor } from "@connectrpc/connect";
import { createRequestContext, currentRequestContext } from "../context.js";
import type { Logger } from "../logger.js";
import { endWithStream, startRpcCallLog } from "../rpc-call-log.js";
import { startRpcClientSpan, startRpcServerSpan } from "../tracing/rpc-spans.js";
import { kRequestContext, nextInContext, procedureOf, type AnyResponse } from "./rpc-call.js";

export const REQUEST_ID_HEADER = "x-request-id";

/**
 * Server: continues the caller's trace (or starts one) with the call's server span
 * (tracing/rpc-spans.ts), adopts the caller's request id (or makes one), and runs the handler
 * inside that request context. The request id is echoed in the response headers. With a
 * logger, each call ends with its debug access line (rpc-call-log.ts).
 */
export function traceInterceptor(logger?: Logger): Interceptor {
  return (next) => async (req) => {
    const span = startRpcServerSpan(req);
    const context = createRequestContext({
      requestId: req.header.get(REQUEST_ID_HEADER),
      otel: span.context,
    });
    req.contextValues.set(kRequestContext, context);
    const log = startRpcCallLog(logger, procedureOf(req), context);
    const end = (error?: unknown) => {
      log?.end(error);
      span.end(error);
    };
    let res: AnyResponse;
    try {
      res = await nextInContext(context, req, next);
    } catch (error) {
      end(error);
      throw error;
    }
    res.header.set(REQUEST_ID_HEADER, context.requestId);
    if (!res.stream) {
      end();
      return res;
    }
    return { ...res, message: endWithStream(res.message, end) };
  };
}

/**
 * Client: the call's client span, sent as the callee's parent (traceparent), and the request
 * id, unless already set.
 */
export function propagateTrace(): Interceptor {
  return (next) => async (req) => {
    const context = currentRequestContext();
    if (context && !req.header.has(REQUEST_ID_HEADER)) req.header.set(REQUEST_ID_HEADER, context.requestId);
    const span = startRpcClientSpan(req);
    let res: AnyResponse;
    try {
      res = await otelContext.with(span.context, () => next(req));
    } catch (error) {
      span.end(error);
      throw error;
    }
    if (!res.stream) {
      span.end();
      return res;
    }
    return { ...res, message: endWithStream(res.message, (error) => span.end(error)) };
  };
}
