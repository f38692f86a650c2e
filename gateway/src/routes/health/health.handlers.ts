import type { RouteHandler } from "@hono/zod-openapi";
import { HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import { GATEWAY_SERVICES } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import type { getHealth, getLiveness, getReadiness } from "./health.routes.js";

const HEALTH_TIMEOUT_MS = 2_000;

export const getHealthHandler: RouteHandler<typeof getHealth, GatewayEnv> = async (c) => {
  const { clients, clock } = c.get("runtime");
  const results = await Promise.all(
    GATEWAY_SERVICES.map(async (service) => {
      try {
        const response = await clients.health[service].check(
          { service: "" },
          { timeoutMs: HEALTH_TIMEOUT_MS },
        );
        const ready = response.status === HealthCheckResponse_ServingStatus.SERVING;
        return [service, { status: ready ? "ready" : "not_ready" }] as const;
      } catch {
        return [service, { status: "unreachable" }] as const;
      }
    }),
  );
  const allReady = results.every(([, health]) => health.status === "ready");
  const body = {
    status: allReady ? ("ok" as const) : ("degraded" as const),
    services: Object.fromEntries(results),
    checked_at: clock.now().toISOString(),
  };
  return allReady ? c.json(body, 200) : c.json(body, 503);
};

export const getLivenessHandler: RouteHandler<typeof getLiveness, GatewayEnv> = (c) =>
  c.json({ status: "ok" as const }, 200);

export const getReadinessHandler: RouteHandler<typeof getReadiness, GatewayEnv> = (c) =>
  c.get("runtime").ready()
    ? c.json({ status: "ready" as const }, 200)
    : c.json({ status: "not_ready" as const }, 503);
