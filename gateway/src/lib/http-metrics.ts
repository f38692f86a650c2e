/**
 * REST metrics: requests by method, route TEMPLATE (route-template.ts, as on the access line:
 * "/experiments/{experiment_id}", never the raw path, so ids never become label values) and
 * status, and their duration by method and route. Requests no route matched (404, 405) are
 * counted under route "(unmatched)".
 *
 * Outermost middleware: every answer is counted, including the guard's 401/429 and onError's.
 */
import type { MiddlewareHandler } from "hono";
import { BoundChildren, FAST_SECONDS_BUCKETS, counter, histogram } from "@petri/service-kit";
import { routeTemplate } from "./route-template.js";

const httpRequests = counter({
  name: "petri_http_requests_total",
  help: "REST requests the gateway answered, by method, route template and status",
  labelNames: ["method", "route", "status"],
});

const httpDuration = histogram({
  name: "petri_http_request_duration_seconds",
  help: "Time from receiving a REST request to its response headers, by method and route template",
  labelNames: ["method", "route"],
  buckets: FAST_SECONDS_BUCKETS,
});

/** Methods outside this set are labelled "other": a client cannot invent label values. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const requestChildren = new BoundChildren<{ inc(): void }>();
const durationChildren = new BoundChildren<{ observe(seconds: number): void }>();

export function httpMetrics(): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1000;
      const method = KNOWN_METHODS.has(c.req.method) ? c.req.method : "other";
      const route = routeTemplate(c);
      const status = String(c.res.status);
      requestChildren
        .get(`${method} ${route} ${status}`, () => httpRequests.labels(method, route, status))
        .inc();
      durationChildren.get(`${method} ${route}`, () => httpDuration.labels(method, route)).observe(seconds);
    }
  };
}
