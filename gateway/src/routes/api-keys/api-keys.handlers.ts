import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { apiKeyJson } from "../../lib/identity-json.js";
import type * as routes from "./api-keys.routes.js";

export const createApiKeyHandler: RouteHandler<typeof routes.createApiKey, GatewayEnv> = async (c) => {
  const { name } = c.req.valid("json");
  const created = await c.get("runtime").clients.identity.createApiKey({ name }, asCaller());
  if (!created.apiKey || !created.secret) throw new Error("identity returned an incomplete API key");
  c.header("Cache-Control", "no-store");
  return c.json({ api_key: apiKeyJson(created.apiKey), api_key_secret: created.secret }, 201);
};

export const listApiKeysHandler: RouteHandler<typeof routes.listApiKeys, GatewayEnv> = async (c) => {
  const { limit, offset, include_revoked } = c.req.valid("query");
  const page = await c
    .get("runtime")
    .clients.identity.listApiKeys({ limit, offset, includeRevoked: include_revoked }, asCaller());
  return c.json({ api_keys: page.apiKeys.map(apiKeyJson), total: Number(page.total), limit, offset }, 200);
};

export const revokeApiKeyHandler: RouteHandler<typeof routes.revokeApiKey, GatewayEnv> = async (c) => {
  const { api_key_id } = c.req.valid("param");
  const runtime = c.get("runtime");
  const { apiKey } = await runtime.clients.identity.revokeApiKey({ apiKeyId: api_key_id }, asCaller());
  if (!apiKey) throw new Error("identity returned no API key");
  // This gateway stops accepting the key now; the others within their cache TTL.
  runtime.apiKeys.evict(apiKey.id);
  return c.json({ api_key: apiKeyJson(apiKey) }, 200);
};
