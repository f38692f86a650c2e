/**
 * The gateway's access line (service-kit's http-access-log.ts): one per request, written
 * when the response is final. It is the outermost middleware, so it sees every request,
 * including those answered before routing or authentication (404, 405, 401, 413, 429, CORS
 * preflights, /health, the docs), and the status error handling settled on.
 */
import type { MiddlewareHandler } from "hono";
import { type Logger, type RequestContext, currentTraceIds, logHttpAccess } from "@petri/service-kit";
import { routeTemplate } from "./route-template.js";
import type { GatewayEnv } from "./runtime.js";

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
      const traceId = currentTraceIds()?.traceId;
      logHttpAccess(logger, {
        method: c.req.method,
        route: routeTemplate(c),
        status: failed ? 500 : c.res.status,
        durationMs: performance.now() - startedAt,
        ...(context ? { requestId: context.requestId } : {}),
        ...(traceId === undefined ? {} : { traceId }),
        ...(accountId === undefined ? {} : { accountId }),
      });
    }
  };
}
