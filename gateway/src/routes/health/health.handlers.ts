import type { RouteHandler } from "@hono/zod-openapi";
import type { GatewayEnv } from "../../lib/create-app.js";
import type * as routes from "./health.routes.js";

export const getHealthHandler: RouteHandler<typeof routes.getHealth, GatewayEnv> = async (c) => {
  const report = await c.get("runtime").health.current();
  const body = {
    status: report.allReady ? ("ok" as const) : ("degraded" as const),
    services: report.services,
    checked_at: new Date(report.checkedAt).toISOString(),
  };
  return report.allReady ? c.json(body, 200) : c.json(body, 503);
};

export const getLivenessHandler: RouteHandler<typeof routes.getLiveness, GatewayEnv> = (c) =>
  c.json({ status: "ok" as const }, 200);

export const getReadinessHandler: RouteHandler<typeof routes.getReadiness, GatewayEnv> = (c) =>
  c.get("runtime").ready()
    ? c.json({ status: "ready" as const }, 200)
    : c.json({ status: "not_ready" as const }, 503);
