import type { RouteHandler } from "@hono/zod-openapi";
import { Role, Tier } from "@petri/contracts/identity";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { ROLE_BY_NAME, TIER_BY_NAME, accountJson } from "../../lib/identity-json.js";
import type { rotateSigningKey, updateAccountAccess } from "./staff.routes.js";

export const updateAccountAccessHandler: RouteHandler<typeof updateAccountAccess, GatewayEnv> = async (c) => {
  const { account_id } = c.req.valid("param");
  const { role, tier } = c.req.valid("json");
  const { account } = await c.get("runtime").clients.identity.updateAccountAccess(
    {
      accountId: account_id,
      role: role ? ROLE_BY_NAME[role] : Role.UNSPECIFIED,
      tier: tier ? TIER_BY_NAME[tier] : Tier.UNSPECIFIED,
    },
    asCaller(),
  );
  if (!account) throw new Error("identity returned no account");
  return c.json({ account: accountJson(account) }, 200);
};

export const rotateSigningKeyHandler: RouteHandler<typeof rotateSigningKey, GatewayEnv> = async (c) => {
  const runtime = c.get("runtime");
  const { active } = await runtime.clients.identity.rotateSigningKey({}, asCaller());
  if (!active) throw new Error("identity returned no active key");
  // Tokens signed with the new key would trigger a fetch anyway (unknown kid); do it now.
  runtime.accessTokens.markStale();
  return c.json({ active_kid: active.kid }, 200);
};
