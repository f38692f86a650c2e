import type { RouteHandler } from "@hono/zod-openapi";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Account, Role, Tier } from "@petri/contracts/identity";
import type { GatewayEnv } from "../../lib/create-app.js";
import type { register } from "./auth.routes.js";

const ROLE_NAMES = {
  [Role.REQUESTER]: "requester",
  [Role.OPERATOR]: "operator",
  [Role.STAFF]: "staff",
} as const;
const TIER_NAMES = { [Tier.STANDARD]: "standard", [Tier.PRO]: "pro", [Tier.AI_AGENT]: "ai_agent" } as const;

export function accountJson(account: Account) {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    organization: account.organization,
    role: ROLE_NAMES[account.role as keyof typeof ROLE_NAMES] ?? "requester",
    tier: TIER_NAMES[account.tier as keyof typeof TIER_NAMES] ?? "standard",
    created_at: account.createdAt ? timestampDate(account.createdAt).toISOString() : "",
  };
}

export const registerHandler: RouteHandler<typeof register, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const { account } = await c.get("deps").clients.identity.registerAccount(body);
  if (!account) throw new Error("identity returned no account");
  return c.json({ account: accountJson(account) }, 201);
};
