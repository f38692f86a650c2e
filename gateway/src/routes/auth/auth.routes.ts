import { createRoute, z } from "@hono/zod-openapi";
import { ROLES, TIERS } from "@petri/contracts/vocabulary";
import { authenticatedAccess, publicAccess } from "../../lib/access.js";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi.js";

export const AccountSchema = z
  .object({
    id: z.string().openapi({ example: "usr_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    email: z.string(),
    name: z.string(),
    organization: z.string(),
    role: z.enum(ROLES),
    tier: z.enum(TIERS).openapi({
      description:
        "Decides the account's rate limits: a published tier's (GET /config), or with custom the limits staff set for this account",
    }),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Account");

export const ApiKeySchema = z
  .object({
    id: z.string().openapi({ example: "key_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    name: z.string(),
    prefix: z.string().openapi({ description: "The first characters of the key", example: "petri_sk_4f9" }),
    created_at: z.string().openapi({ format: "date-time" }),
    last_used_at: z.string().nullable().openapi({ format: "date-time" }),
    revoked_at: z
      .string()
      .nullable()
      .openapi({ format: "date-time", description: "Null while the key is active" }),
  })
  .openapi("ApiKey");

export const RateLimitsSchema = z
  .object({
    per_minute: z.int().openapi({ description: "Requests per minute", example: 5000 }),
    per_day: z.int().openapi({ description: "Requests per UTC day", example: 2000000 }),
  })
  .openapi("RateLimits");

/** The account as staff see it (the /admin/accounts operations). */
export const AdminAccountSchema = AccountSchema.extend({
  rate_limits: RateLimitsSchema.optional().openapi({
    description: "The limits staff set for the account; present exactly when tier is custom",
  }),
}).openapi("AdminAccount");

export const TierLimitsSchema = z
  .object({ requests_per_minute: z.int(), requests_per_day: z.int() })
  .openapi("TierLimits");

export const RegisterBodySchema = z
  .strictObject({
    email: z.string().max(254).openapi({ example: "ada@example.org" }),
    password: z.string().max(1024).openapi({ description: "10 to 128 characters" }),
    name: z.string().max(200),
    organization: z.string().max(200).default(""),
  })
  .openapi("RegisterRequest");

export const RegisterResponseSchema = z
  .object({
    account: AccountSchema,
    api_key: ApiKeySchema,
    api_key_secret: z.string().openapi({
      description: "The API key itself. Shown in this response only; store it now.",
      example: "petri_sk_4f9Q...",
    }),
  })
  .openapi("RegisterResponse");

export const TokenBodySchema = z
  .strictObject({
    email: z.string().max(254),
    password: z.string().max(1024),
  })
  .openapi("TokenRequest");

export const TokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal("bearer"),
    expires_in: z.int().openapi({ description: "Seconds until the token expires" }),
  })
  .openapi("TokenResponse");

export const MeResponseSchema = z.object({ account: AccountSchema, limits: TierLimitsSchema }).openapi("Me");

export const register = createRoute({
  method: "post",
  path: "/auth/register",
  operationId: "register",
  tags: ["Auth"],
  summary: "Register a requester account and its first API key",
  ...publicAccess,
  request: { body: jsonBody(RegisterBodySchema) },
  responses: {
    201: jsonResponse(
      "The account, its first API key, and the key's secret (shown once)",
      RegisterResponseSchema,
      {
        secret: true,
      },
    ),
    ...errorResponses({
      authenticated: false,
      body: true,
      extra: {
        403: "Registration is closed (registration_closed)",
        409: "The e-mail address is taken (email_taken)",
      },
    }),
  },
});

export const issueToken = createRoute({
  method: "post",
  path: "/auth/token",
  operationId: "issueToken",
  tags: ["Auth"],
  summary: "Exchange e-mail and password for an access token",
  description:
    "A wrong e-mail and a wrong password are answered alike (401). Failures count towards the address's failed-authentication limit.",
  ...publicAccess,
  request: { body: jsonBody(TokenBodySchema) },
  responses: {
    200: jsonResponse("An access token", TokenResponseSchema, { secret: true }),
    ...errorResponses({
      authenticated: false,
      body: true,
      extra: { 401: "Wrong e-mail or password (unauthorized)" },
    }),
  },
});

export const getMe = createRoute({
  method: "get",
  path: "/auth/me",
  operationId: "getMe",
  tags: ["Auth"],
  summary: "The caller's account and its tier's rate limits",
  description: "With the custom tier, limits are the ones staff set for the account.",
  ...authenticatedAccess,
  responses: {
    200: jsonResponse("The caller's account", MeResponseSchema),
    ...errorResponses({ authenticated: true }),
  },
});

export const RevokeTokenBodySchema = z
  .strictObject({
    token: z.string().max(8192).openapi({ description: "The access token to end" }),
    token_type_hint: z
      .literal("access_token")
      .optional()
      .openapi({ description: "RFC 7009 hint; only access tokens can be revoked here" }),
  })
  .openapi("RevokeTokenRequest");

export const RevokeTokenResponseSchema = z
  .object({})
  .openapi("RevokeTokenResponse", { description: "Always empty, whatever the token was" });

export const revokeToken = createRoute({
  method: "post",
  path: "/auth/token/revoke",
  operationId: "revokeToken",
  tags: ["Auth"],
  summary: "End an access token before it expires (RFC 7009)",
  description:
    "Whoever holds an access token may end it: the token in the body is the credential. The answer is 200 whether the token was valid, already revoked, expired or unknown (RFC 7009, section 2.2), so the endpoint tells nothing about a token. A revoked token is refused by every gateway within 5 seconds (normally at once).",
  ...publicAccess,
  request: { body: jsonBody(RevokeTokenBodySchema) },
  responses: {
    200: jsonResponse("Done (or nothing to do)", RevokeTokenResponseSchema),
    ...errorResponses({ authenticated: false, body: true }),
  },
});

export const ChangePasswordBodySchema = z
  .strictObject({
    current_password: z.string().max(1024),
    new_password: z.string().max(1024).openapi({ description: "10 to 128 characters" }),
  })
  .openapi("ChangePasswordRequest");

export const ChangePasswordResponseSchema = z
  .object({ password_changed: z.literal(true) })
  .openapi("ChangePasswordResponse");

export const changePassword = createRoute({
  method: "post",
  path: "/auth/password",
  operationId: "changePassword",
  tags: ["Auth"],
  summary: "Change the caller's password",
  description:
    "Needs the current password. Every access token of the account issued before stops working on every gateway within 5 seconds (normally at once), the one this request carried included; get a new one from POST /auth/token. API keys are separate credentials and stay valid until revoked. A wrong current password is 401 and counts towards the address's failed-authentication limit.",
  ...authenticatedAccess,
  request: {
    body: jsonBody(ChangePasswordBodySchema),
  },
  responses: {
    200: jsonResponse("The password was changed", ChangePasswordResponseSchema),
    ...errorResponses({ authenticated: true, body: true }),
  },
});
