import { createRoute, z } from "@hono/zod-openapi";
import { ROLES, TIERS } from "@petri/contracts/vocabulary";
import { CUSTOM_RATE_LIMIT_BOUNDS } from "@petri/contracts";
import { restrictedTo } from "../../lib/access.js";
import { errorResponses, jsonBody, jsonResponse, lookupErrors } from "../../lib/openapi.js";
import { AdminAccountSchema } from "../auth/auth.routes.js";

const { perMinute, perDay } = CUSTOM_RATE_LIMIT_BOUNDS;

export const CustomRateLimitsBodySchema = z
  .strictObject({
    per_minute: z
      .int()
      .min(perMinute.min)
      .max(perMinute.max)
      .openapi({ description: `Requests per minute, ${perMinute.min} to ${perMinute.max}`, example: 5000 }),
    per_day: z
      .int()
      .min(perMinute.min)
      .max(perDay.max)
      .openapi({ description: `Requests per UTC day, per_minute to ${perDay.max}`, example: 2000000 }),
  })
  .refine((limits) => limits.per_day >= limits.per_minute, {
    message: "per_day must be at least per_minute",
    path: ["per_day"],
  })
  .openapi("CustomRateLimits");

export const UpdateAccountAccessBodySchema = z
  .strictObject({
    role: z.enum(ROLES).optional(),
    tier: z.enum(TIERS).optional().openapi({
      description: "custom: the limits in rate_limits, for this account only; any other tier clears them",
    }),
    rate_limits: CustomRateLimitsBodySchema.optional().openapi({
      description: 'Required with tier "custom", refused with any other tier (or none)',
    }),
  })
  .refine((body) => body.role !== undefined || body.tier !== undefined, {
    message: "give role, tier or both",
    path: ["role"],
  })
  .superRefine((body, ctx) => {
    if (body.tier === "custom" && body.rate_limits === undefined)
      // invalid_type on an absent field: reported as missing_required.
      ctx.addIssue({
        code: "invalid_type",
        expected: "object",
        input: undefined,
        path: ["rate_limits"],
        message: 'rate_limits is required with tier "custom"',
      });
    if (body.tier !== "custom" && body.rate_limits !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["rate_limits"],
        message: 'rate_limits can only be given with tier "custom"',
      });
  })
  .openapi("UpdateAccountAccessRequest");

export const AccountIdParamsSchema = z.object({
  account_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "account_id", in: "path" }, example: "usr_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
});

export const RotatedSigningKeySchema = z
  .object({ active_kid: z.string().openapi({ description: "The key id that signs new access tokens" }) })
  .openapi("RotatedSigningKey");

const AdminAccountResponseSchema = z.object({ account: AdminAccountSchema }).openapi("UpdatedAccount");

export const getAdminAccount = createRoute({
  method: "get",
  path: "/admin/accounts/{account_id}",
  operationId: "getAdminAccount",
  tags: ["Admin"],
  summary: "An account with its role, tier and custom limits (staff only)",
  ...restrictedTo("staff"),
  request: { params: AccountIdParamsSchema },
  responses: {
    200: jsonResponse("The account", AdminAccountResponseSchema),
    ...lookupErrors("No such account (not_found)"),
  },
});

export const updateAccountAccess = createRoute({
  method: "patch",
  path: "/admin/accounts/{account_id}",
  operationId: "updateAccountAccess",
  tags: ["Admin"],
  summary: "Change an account's role and/or tier (staff only)",
  description:
    'Takes effect for the account\'s API keys within 30 seconds and for its access tokens when they are next issued. Tier "custom" gives the account its own rate limits (rate_limits: per_minute 1 to 1,000,000, per_day from per_minute to 1,000,000,000), for internal and enterprise accounts; new limits for an account already on the custom tier apply from its next requests, without ending its credentials.',
  ...restrictedTo("staff"),
  request: {
    params: AccountIdParamsSchema,
    body: jsonBody(UpdateAccountAccessBodySchema),
  },
  responses: {
    200: jsonResponse("The updated account", AdminAccountResponseSchema),
    ...lookupErrors("No such account (not_found)", { body: true }),
  },
});

export const rotateSigningKey = createRoute({
  method: "post",
  path: "/admin/signing-keys/rotate",
  operationId: "rotateSigningKey",
  tags: ["Admin"],
  summary: "Start signing access tokens with a new key (staff only)",
  description: "The previous key keeps verifying the tokens it signed until they expire.",
  ...restrictedTo("staff"),
  responses: {
    200: jsonResponse("The new active key", RotatedSigningKeySchema),
    ...errorResponses({ authenticated: true }),
  },
});
