import { createRoute, z } from "@hono/zod-openapi";

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

export const getHealth = createRoute({
  method: "get",
  path: "/health",
  tags: ["System"],
  summary: "Readiness of every service (database, bus, migrations, consumers), asked over Connect",
  security: [],
  responses: {
    200: { description: "Every service is ready", content: { "application/json": { schema: HealthSchema } } },
    503: {
      description: "At least one service is not ready",
      content: { "application/json": { schema: HealthSchema } },
    },
  },
});
