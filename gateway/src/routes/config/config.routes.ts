import { createRoute, z } from "@hono/zod-openapi";
import { publicAccess } from "../../lib/access.js";
import { PUBLISHED_TIERS } from "../../lib/identity-json.js";
import { errorResponses, jsonResponse } from "../../lib/openapi.js";

const TierSchema = z.object({
  name: z.enum(PUBLISHED_TIERS),
  requests_per_minute: z.int(),
  requests_per_day: z.int(),
});

export const ConfigSchema = z
  .object({
    api_version: z.string(),
    auth: z.object({
      schemes: z.array(
        z.object({
          name: z.enum(["bearerAuth", "apiKeyAuth"]),
          header: z.string(),
          format: z.string(),
        }),
      ),
      access_token_ttl_seconds: z.int(),
      api_key_cache_ttl_seconds: z
        .int()
        .openapi({ description: "Upper bound for a revocation to reach every gateway" }),
    }),
    tiers: z.array(TierSchema),
    limits: z.object({
      max_body_bytes: z
        .int()
        .openapi({ description: "Largest request body of every operation not listed below" }),
      max_body_bytes_by_operation: z.record(z.string(), z.int()).openapi({
        description:
          'Operations with their own body limit, e.g. {"POST /operator/jobs/{experiment_id}/submit": 41943040}',
      }),
      page_size_default: z.int(),
      page_size_max: z.int(),
      failed_authentications_per_minute: z.int().openapi({
        description:
          "Failed authentications per credential (e-mail, API key or token) and source address; then 429 for that credential there",
      }),
      failed_authentications_per_address_per_minute: z.int().openapi({
        description:
          "Failed authentications per source address, whatever the credential; then 429 for every credential",
      }),
    }),
    public_routes: z.array(z.string()),
    enums: z.object({
      experiment_types: z.array(z.string()),
      privacy_levels: z.array(z.string()),
      bsl_levels: z.object({ supported: z.array(z.string()), flagged: z.array(z.string()) }),
      webhook_events: z.array(z.string()),
      dispute_reasons: z.array(z.string()),
      turnaround_priorities: z.array(z.string()),
      budget_flexibility: z.array(z.string()),
    }),
    features: z.object({ registration: z.boolean() }),
  })
  .openapi("Config");

export const getConfig = createRoute({
  method: "get",
  path: "/config",
  operationId: "getConfig",
  tags: ["System"],
  summary: "Public bootstrap configuration: auth schemes, tiers and limits, enumerations, feature switches",
  ...publicAccess,
  responses: {
    200: jsonResponse("The configuration (never a secret)", ConfigSchema),
    ...errorResponses({ authenticated: false }),
  },
});
