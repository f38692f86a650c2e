import type { RouteHandler } from "@hono/zod-openapi";
import { Role, Tier } from "@petri/contracts/identity";
import { ROLE_BY_NAME, TIER_BY_NAME } from "@petri/contracts/vocabulary";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { adminAccountJson } from "../../lib/identity-json.js";
import type * as routes from "./staff.routes.js";

export const getAdminAccountHandler: RouteHandler<typeof routes.getAdminAccount, GatewayEnv> = async (c) => {
  const { account_id } = c.req.valid("param");
  const { account } = await c
    .get("runtime")
    .clients.identity.getAccount({ accountId: account_id }, asCaller());
  if (!account) throw new Error("identity returned no account");
  return c.json({ account: adminAccountJson(account) }, 200);
};

export const updateAccountAccessHandler: RouteHandler<typeof routes.updateAccountAccess, GatewayEnv> = async (
  c,
) => {
  const { account_id } = c.req.valid("param");
  const { role, tier, rate_limits } = c.req.valid("json");
  const runtime = c.get("runtime");
  let response;
  try {
    response = await runtime.clients.identity.updateAccountAccess(
      {
        accountId: account_id,
        role: role ? ROLE_BY_NAME[role] : Role.UNSPECIFIED,
        tier: tier ? TIER_BY_NAME[tier] : Tier.UNSPECIFIED,
        rateLimits: rate_limits
          ? { perMinute: BigInt(rate_limits.per_minute), perDay: BigInt(rate_limits.per_day) }
          : undefined,
      },
      asCaller(),
    );
  } finally {
    // Also when the call failed: the change may have been made all the same.
    runtime.accountViews.accountChanged();
  }
  const { account } = response;
  if (!account) throw new Error("identity returned no account");
  return c.json({ account: adminAccountJson(account) }, 200);
};

export const rotateSigningKeyHandler: RouteHandler<typeof routes.rotateSigningKey, GatewayEnv> = async (
  c,
) => {
  const runtime = c.get("runtime");
  const { active } = await runtime.clients.identity.rotateSigningKey({}, asCaller());
  if (!active) throw new Error("identity returned no active key");
  // Tokens signed with the new key would trigger a fetch anyway (unknown kid); do it now.
  runtime.accessTokens.markStale();
  return c.json({ active_kid: active.kid }, 200);
};
