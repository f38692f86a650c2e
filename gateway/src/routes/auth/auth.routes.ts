import { createRoute, z } from "@hono/zod-openapi";
import { errorResponse } from "../../lib/problem.js";

export const RegisterBodySchema = z
  .object({
    email: z.string().max(254),
    password: z.string().max(1024),
    name: z.string().max(200),
    organization: z.string().max(200).default(""),
  })
  .openapi("RegisterRequest");

export const AccountSchema = z
  .object({
    id: z.string().openapi({ example: "usr_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    email: z.string(),
    name: z.string(),
    organization: z.string(),
    role: z.enum(["requester", "operator", "staff"]),
    tier: z.enum(["standard", "pro", "ai_agent"]),
    created_at: z.string(),
  })
  .openapi("Account");

export const register = createRoute({
  method: "post",
  path: "/auth/register",
  tags: ["Auth"],
  summary: "Register a requester account",
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: RegisterBodySchema } } } },
  responses: {
    201: {
      description: "The account",
      content: { "application/json": { schema: z.object({ account: AccountSchema }) } },
    },
    409: errorResponse("The e-mail address is taken (email_taken)"),
    413: errorResponse("The body is too large"),
    422: errorResponse("The body is invalid"),
  },
});
