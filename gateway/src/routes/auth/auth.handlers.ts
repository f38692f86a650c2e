import type { RouteHandler } from "@hono/zod-openapi";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { asCaller, asGateway } from "../../lib/clients.js";
import { CredentialRejectedError } from "../../lib/credential-errors.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { loginCredential, passwordConfirmationCredential } from "../../lib/auth-failures.js";
import { blockedAuthentication, failedAuthentication } from "../../lib/guard.js";
import { accountJson, apiKeyJson } from "../../lib/identity-json.js";
import { ApiError, RespondWith } from "../../lib/problem.js";
import type * as routes from "./auth.routes.js";

export const registerHandler: RouteHandler<typeof routes.register, GatewayEnv> = async (c) => {
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

export const issueTokenHandler: RouteHandler<typeof routes.issueToken, GatewayEnv> = async (c) => {
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

export const getMeHandler: RouteHandler<typeof routes.getMe, GatewayEnv> = async (c) =>
  c.json(await c.get("runtime").accountViews.own(c.get("principal").accountId), 200);

/**
 * RFC 7009: 200 for any token. Only a token this gateway verifies (signature, expiry, not
 * yet revoked) is passed to identity, which keeps and announces it; this gateway refuses it
 * at once, the others when the event reaches them.
 */
export const revokeTokenHandler: RouteHandler<typeof routes.revokeToken, GatewayEnv> = async (c) => {
  const runtime = c.get("runtime");
  const { token } = c.req.valid("json");
  let verified;
  try {
    verified = await runtime.accessTokens.verifyToken(token);
  } catch (error) {
    if (!(error instanceof CredentialRejectedError)) throw error;
    runtime.logger.debug({ reason: error.reason, request_id: c.get("requestId") }, "nothing to revoke");
  }
  if (verified && verified.jti !== "") {
    await runtime.clients.identity.revokeAccessToken(
      {
        token: {
          accountId: verified.principal.accountId,
          jti: verified.jti,
          expiresAt: timestampFromDate(new Date(verified.expiresAt)),
        },
      },
      asGateway(),
    );
    runtime.revocations.revokeToken(verified.jti, verified.expiresAt);
  }
  c.header("Cache-Control", "no-store");
  return c.json({}, 200);
};

export const changePasswordHandler: RouteHandler<typeof routes.changePassword, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const credential = passwordConfirmationCredential(c.get("principal").accountId);
  const blocked = blockedAuthentication(c, credential);
  if (blocked) throw new RespondWith(blocked);
  try {
    await c
      .get("runtime")
      .clients.identity.changePassword(
        { currentPassword: body.current_password, newPassword: body.new_password },
        asCaller(),
      );
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.Unauthenticated) {
      throw new RespondWith(await failedAuthentication(c, credential, "the current password is wrong"));
    }
    throw error;
  }
  return c.json({ password_changed: true as const }, 200);
};
