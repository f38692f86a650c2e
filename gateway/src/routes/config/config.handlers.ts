import type { RouteHandler } from "@hono/zod-openapi";
import { PUBLIC_OPERATIONS } from "../../lib/access.js";
import { API_KEY_PREFIX } from "../../lib/api-key-format.js";
import { OPERATION_BODY_LIMITS } from "../../lib/body-limit.js";
import {
  FAILED_AUTHENTICATIONS_PER_ADDRESS_PER_MINUTE,
  FAILED_AUTHENTICATIONS_PER_MINUTE,
  FLAGGED_BSL_LEVELS,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  SUPPORTED_BSL_LEVELS,
  TIER_LIMITS,
} from "../../lib/catalog.js";
import {
  BUDGET_FLEXIBILITIES,
  DISPUTE_REASONS,
  EXPERIMENT_TYPES,
  PRIVACY_LEVELS,
  TURNAROUND_PRIORITIES,
  WEBHOOK_EVENTS,
} from "@petri/contracts/vocabulary";
import type { GatewayEnv } from "../../lib/create-app.js";
import { PUBLISHED_TIERS } from "../../lib/identity-json.js";
import { API_VERSION } from "../../lib/openapi.js";
import type * as routes from "./config.routes.js";

export const getConfigHandler: RouteHandler<typeof routes.getConfig, GatewayEnv> = (c) => {
  const runtime = c.get("runtime");
  return c.json(
    {
      api_version: API_VERSION,
      auth: {
        schemes: [
          { name: "bearerAuth" as const, header: "Authorization", format: "Bearer <access token (JWT)>" },
          { name: "apiKeyAuth" as const, header: "X-API-Key", format: `${API_KEY_PREFIX}<38 characters>` },
        ],
        access_token_ttl_seconds: runtime.accessTokenTtlSeconds,
        api_key_cache_ttl_seconds: Math.ceil(runtime.apiKeys.ttlMs / 1000),
      },
      tiers: PUBLISHED_TIERS.map((name) => ({ name, ...TIER_LIMITS[name] })),
      limits: {
        max_body_bytes: runtime.maxBodyBytes,
        max_body_bytes_by_operation: { ...OPERATION_BODY_LIMITS },
        page_size_default: PAGE_SIZE_DEFAULT,
        page_size_max: PAGE_SIZE_MAX,
        failed_authentications_per_minute: FAILED_AUTHENTICATIONS_PER_MINUTE,
        failed_authentications_per_address_per_minute: FAILED_AUTHENTICATIONS_PER_ADDRESS_PER_MINUTE,
      },
      public_routes: [...PUBLIC_OPERATIONS],
      enums: {
        experiment_types: [...EXPERIMENT_TYPES],
        privacy_levels: [...PRIVACY_LEVELS],
        bsl_levels: { supported: [...SUPPORTED_BSL_LEVELS], flagged: [...FLAGGED_BSL_LEVELS] },
        webhook_events: [...WEBHOOK_EVENTS],
        dispute_reasons: [...DISPUTE_REASONS],
        turnaround_priorities: [...TURNAROUND_PRIORITIES],
        budget_flexibility: [...BUDGET_FLEXIBILITIES],
      },
      features: { registration: runtime.registrationOpen },
    },
    200,
  );
};
