/**
 * The gateway's access line (service-kit's http-access-log.ts): one per request, written
 * when the response is final. It is the outermost middleware, so it sees every request,
 * including those answered before routing or authentication (404, 405, 401, 413, 429, CORS
 * preflights, /health, the docs), and the status error handling settled on.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { type Logger, type RequestContext, UNMATCHED_ROUTE, logHttpAccess } from "@petri/service-kit";
import type { GatewayEnv } from "./runtime.js";

// Routes live as long as the app: each one's template is built once.
const templates = new WeakMap<object, string>();

/**
 * The OpenAPI template of the route that answered ("/experiments/{experiment_id}"), or
 * UNMATCHED_ROUTE; never the request's own path.
 */
export function routeTemplate(c: Context): string {
  // Middleware is registered for method ALL; the last other match is the route's handler.
  const route = matchedRoutes(c).findLast((r) => r.method !== "ALL");
  if (!route) return UNMATCHED_ROUTE;
  let template = templates.get(route);
  if (template === undefined) {
    template = route.path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
    templates.set(route, template);
  }
  return template;
}

export function accessLog(logger: Logger): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const startedAt = performance.now();
    let failed = false;
    try {
      await next();
    } catch (error) {
      failed = true; // onError itself failed: the server answers 500
      throw error;
    } finally {
      // Unset only if a middleware outside the request-id one failed (none does).
      const context = c.get("requestContext") as RequestContext | undefined;
      const accountId = c.get("principal")?.accountId;
      logHttpAccess(logger, {
        method: c.req.method,
        route: routeTemplate(c),
        status: failed ? 500 : c.res.status,
        durationMs: performance.now() - startedAt,
        ...(context ? { requestId: context.requestId, traceId: context.traceId } : {}),
        ...(accountId === undefined ? {} : { accountId }),
      });
    }
  };
}
