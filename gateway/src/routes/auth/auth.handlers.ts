import type { RouteHandler } from "@hono/zod-openapi";
import { Code, ConnectError } from "@connectrpc/connect";
import { asCaller } from "../../lib/clients.js";
import { TIER_LIMITS } from "../../lib/catalog.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { loginCredential } from "../../lib/auth-failures.js";
import { blockedAuthentication, failedAuthentication } from "../../lib/guard.js";
import { accountJson, apiKeyJson } from "../../lib/identity-json.js";
import { ApiError, RespondWith } from "../../lib/problem.js";
import type { getMe, issueToken, register } from "./auth.routes.js";

export const registerHandler: RouteHandler<typeof register, GatewayEnv> = async (c) => {
  const runtime = c.get("runtime");
  if (!runtime.registrationOpen) {
    throw new ApiError(403, "registration_closed", "registration is closed");
  }
  const body = c.req.valid("json");
  const created = await runtime.clients.identity.registerAccount(body, asCaller());
  if (!created.account || !created.apiKey || !created.apiKeySecret) {
    throw new Error("identity returned an incomplete registration");
  }
  c.header("Cache-Control", "no-store");
  return c.json(
    {
      account: accountJson(created.account),
      api_key: apiKeyJson(created.apiKey),
      api_key_secret: created.apiKeySecret,
    },
    201,
  );
};

export const issueTokenHandler: RouteHandler<typeof issueToken, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const credential = loginCredential(body.email);
  // A locked (account, address) pair stays locked even for the right password.
  const blocked = blockedAuthentication(c, credential);
  if (blocked) throw new RespondWith(blocked);
  let issued;
  try {
    issued = await c.get("runtime").clients.identity.issueToken(body, asCaller());
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.Unauthenticated) {
      throw new RespondWith(await failedAuthentication(c, credential, "wrong e-mail or password"));
    }
    throw error;
  }
  c.header("Cache-Control", "no-store");
  return c.json(
    { access_token: issued.accessToken, token_type: "bearer" as const, expires_in: Number(issued.expiresIn) },
    200,
  );
};

export const getMeHandler: RouteHandler<typeof getMe, GatewayEnv> = async (c) => {
  const { account } = await c.get("runtime").clients.identity.getAccount({ accountId: "" }, asCaller());
  if (!account) throw new Error("identity returned no account");
  const json = accountJson(account);
  return c.json({ account: json, limits: TIER_LIMITS[json.tier] }, 200);
};
