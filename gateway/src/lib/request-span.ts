/**
 * The request's server span: the outermost middleware, so that the access line, every log
 * line and every Connect call of the request belong to it. It continues the caller's trace
 * (a `traceparent` header, W3C propagator) or starts one, and is named by the route template
 * once routing settled it ("POST /experiments/{experiment_id}/claim"), as the HTTP semantic
 * conventions ask; never by the raw path, which holds ids.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from "@opentelemetry/api";
import { headersGetter, tracer } from "@petri/service-kit";
import type { MiddlewareHandler } from "hono";
import { routeTemplate } from "./route-template.js";
import type { GatewayEnv } from "./runtime.js";

export function requestSpan(): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const method = c.req.method;
    const parent = propagation.extract(ROOT_CONTEXT, c.req.raw.headers, headersGetter);
    const span = tracer().startSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { "http.request.method": method } },
      parent,
    );
    let failed = false;
    try {
      await context.with(trace.setSpan(parent, span), next);
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
