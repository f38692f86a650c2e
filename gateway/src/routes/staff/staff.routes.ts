import { createRoute, z } from "@hono/zod-openapi";
import { restrictedTo } from "../../lib/access.js";
import { errorResponses, jsonResponse } from "../../lib/openapi.js";
import { AccountSchema } from "../auth/auth.routes.js";

export const UpdateAccountAccessBodySchema = z
  .strictObject({
    role: z.enum(["requester", "operator", "staff"]).optional(),
    tier: z.enum(["standard", "pro", "ai_agent"]).optional(),
  })
  .refine((body) => body.role !== undefined || body.tier !== undefined, {
    message: "give role, tier or both",
    path: ["role"],
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

export const updateAccountAccess = createRoute({
  method: "patch",
  path: "/admin/accounts/{account_id}",
  operationId: "updateAccountAccess",
  tags: ["Admin"],
  summary: "Change an account's role and/or tier (staff only)",
  description:
    "Takes effect for the account's API keys within 30 seconds and for its access tokens when they are next issued.",
  ...restrictedTo("staff"),
  request: {
    params: AccountIdParamsSchema,
    body: { required: true, content: { "application/json": { schema: UpdateAccountAccessBodySchema } } },
  },
  responses: {
    200: jsonResponse("The updated account", z.object({ account: AccountSchema }).openapi("UpdatedAccount")),
    ...errorResponses({
      authenticated: true,
      body: true,
      parameters: true,
      notFound: "No such account (not_found)",
    }),
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
