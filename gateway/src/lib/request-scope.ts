/**
 * The request's scope, entered first so that the access line, every log line and every
 * Connect call of the request belong to it: its request id (the caller's `x-request-id` when it
 * is short and plain enough to log, else a new one), its server span, and the request context,
 * all in one OpenTelemetry context entered once (each context entered costs every request).
 *
 * The span continues the caller's trace (a `traceparent` header, W3C propagator) or starts
 * one (with ids even when nothing is exported: startEdgeSpan), and is named by the route template once routing settled it ("POST
 * /experiments/{experiment_id}/claim"), as the HTTP semantic conventions ask; never by the raw
 * path, which holds ids.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, propagation, trace } from "@opentelemetry/api";
import {
  createRequestContext,
  headersGetter,
  newId,
  runWithRequestContext,
  startEdgeSpan,
} from "@petri/service-kit";
import type { MiddlewareHandler } from "hono";
import { routeTemplate } from "./route-template.js";
import type { GatewayDeps, GatewayEnv, GatewayRuntime } from "./runtime.js";

// Accept a caller's request id only if it is short and plain, so it cannot inject log lines.
const LOGGABLE_REQUEST_ID = /^[\w.-]{1,128}$/;

export function requestScope(deps: GatewayDeps, runtime: GatewayRuntime): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const method = c.req.method;
    const headers = c.req.raw.headers;
    const incoming = headers.get("x-request-id");
    const requestId =
      incoming && LOGGABLE_REQUEST_ID.test(incoming) ? incoming : newId("req", deps.clock.now());
    c.set("requestId", requestId);
    c.set("deps", deps);
    c.set("runtime", runtime);
    c.header("x-request-id", requestId);

    const parent = propagation.extract(ROOT_CONTEXT, headers, headersGetter);
    const span = startEdgeSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { "http.request.method": method } },
      parent,
    );
    const context = createRequestContext({ requestId, otel: trace.setSpan(parent, span) });
    c.set("requestContext", context);
    let failed = false;
    try {
      await runWithRequestContext(context, next);
    } catch (error) {
      failed = true; // onError itself failed: the server answers 500
      throw error;
    } finally {
      if (span.isRecording()) {
        const route = routeTemplate(c);
        const status = failed ? 500 : c.res.status;
        span.updateName(`${method} ${route}`);
        span.setAttributes({ "http.route": route, "http.response.status_code": status });
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    }
  };
}
