import { createRoute, z } from "@hono/zod-openapi";
import { authenticatedAccess } from "../../lib/access.js";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "../../lib/catalog.js";
import { errorResponses, jsonBody, jsonResponse, lookupErrors } from "../../lib/openapi.js";
import { queryInt } from "../../lib/query.js";
import { ApiKeySchema } from "../auth/auth.routes.js";

export const CreateApiKeyBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100).openapi({ example: "ci pipeline" }),
  })
  .openapi("CreateApiKeyRequest");

export const CreatedApiKeySchema = z
  .object({
    api_key: ApiKeySchema,
    api_key_secret: z.string().openapi({ description: "The API key itself. Shown in this response only." }),
  })
  .openapi("CreatedApiKey");

export const ListApiKeysQuerySchema = z.object({
  limit: queryInt(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
  offset: queryInt(0, 1_000_000, 0),
  include_revoked: z
    .enum(["true", "false"])
    .optional()
    .transform((value) => value === "true")
    .openapi({ type: "boolean", default: false, description: "Also list revoked keys" }),
});

export const ApiKeyListSchema = z
  .object({
    api_keys: z.array(ApiKeySchema),
    total: z.int(),
    limit: z.int(),
    offset: z.int(),
  })
  .openapi("ApiKeyList");

export const ApiKeyIdParamsSchema = z.object({
  api_key_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "api_key_id", in: "path" }, example: "key_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
});

export const createApiKey = createRoute({
  method: "post",
  path: "/auth/api-keys",
  operationId: "createApiKey",
  tags: ["API keys"],
  summary: "Create an API key for the caller; its secret is in this response only",
  ...authenticatedAccess,
  request: { body: jsonBody(CreateApiKeyBodySchema) },
  responses: {
    201: jsonResponse("The key and its secret (shown once)", CreatedApiKeySchema, { secret: true }),
    ...errorResponses({ authenticated: true, body: true }),
  },
});

export const listApiKeys = createRoute({
  method: "get",
  path: "/auth/api-keys",
  operationId: "listApiKeys",
  tags: ["API keys"],
  summary: "The caller's API keys, newest first (never their secrets)",
  ...authenticatedAccess,
  request: { query: ListApiKeysQuerySchema },
  responses: {
    200: jsonResponse("A page of keys", ApiKeyListSchema),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const revokeApiKey = createRoute({
  method: "delete",
  path: "/auth/api-keys/{api_key_id}",
  operationId: "revokeApiKey",
  tags: ["API keys"],
  summary: "Revoke one of the caller's API keys (idempotent)",
  description:
    "Takes effect at once on the gateway that handles this request and within 30 seconds on every other gateway (their key caches expire).",
  ...authenticatedAccess,
  request: { params: ApiKeyIdParamsSchema },
  responses: {
    200: jsonResponse("The revoked key", z.object({ api_key: ApiKeySchema }).openapi("RevokedApiKey")),
    ...lookupErrors("No such key of yours (not_found)"),
  },
});
