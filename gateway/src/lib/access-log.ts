/**
 * The gateway's access line (service-kit's http-access-log.ts): one per request, written
 * when the response is final. Only the request's scope (request-scope.ts) is outside it,
 * so it sees every request, including those answered before routing or authentication (404,
 * 405, 401, 413, 429, CORS preflights, /health, the docs), and the status error handling
 * settled on. Its trace and span ids are the request span's, added by the logger as on every
 * line.
 */
import type { MiddlewareHandler } from "hono";
import { type Logger, logHttpAccess } from "@petri/service-kit";
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
      const accountId = c.get("principal")?.accountId;
      logHttpAccess(logger, {
        method: c.req.method,
        route: routeTemplate(c),
        status: failed ? 500 : c.res.status,
        durationMs: performance.now() - startedAt,
        requestId: c.get("requestId"),
        ...(accountId === undefined ? {} : { accountId }),
      });
    }
  };
}
