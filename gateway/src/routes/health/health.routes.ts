import { createRoute, z } from "@hono/zod-openapi";
import { publicAccess } from "../../lib/access.js";
import { errorResponses, jsonResponse } from "../../lib/openapi.js";

const ServiceHealthSchema = z.object({
  status: z.enum(["ready", "not_ready", "unreachable"]),
});

export const HealthSchema = z
  .object({
    status: z.enum(["ok", "degraded"]),
    services: z.record(z.string(), ServiceHealthSchema),
    checked_at: z.string(),
  })
  .openapi("Health");

export const ProbeSchema = z.object({ status: z.enum(["ok", "ready", "not_ready"]) }).openapi("Probe");

export const getHealth = createRoute({
  method: "get",
  path: "/health",
  operationId: "getHealth",
  tags: ["System"],
  summary:
    "Readiness of every service (database, bus, migrations, consumers), asked over Connect at most once a second (checked_at says when; no rate limit)",
  ...publicAccess,
  responses: {
    ...errorResponses({ authenticated: false, rateLimited: false }),
    200: jsonResponse("Every service is ready", HealthSchema, { rateLimited: false }),
    503: jsonResponse("At least one service is not ready", HealthSchema, { rateLimited: false }),
  },
});

export const getLiveness = createRoute({
  method: "get",
  path: "/healthz",
  operationId: "getLiveness",
  tags: ["System"],
  summary: "Liveness of this gateway process (for probes; no rate limit, no service call)",
  ...publicAccess,
  responses: {
    200: jsonResponse("The process is alive", ProbeSchema, { rateLimited: false }),
    ...errorResponses({ authenticated: false, rateLimited: false }),
  },
});

export const getReadiness = createRoute({
  method: "get",
  path: "/readyz",
  operationId: "getReadiness",
  tags: ["System"],
  summary: "Readiness of this gateway process to take traffic (for probes; no rate limit, no service call)",
  ...publicAccess,
  responses: {
    ...errorResponses({ authenticated: false, rateLimited: false }),
    200: jsonResponse("Ready", ProbeSchema, { rateLimited: false }),
    503: jsonResponse("Not ready (starting or draining)", ProbeSchema, { rateLimited: false }),
  },
});
