import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { operatorJson } from "../../lib/marketplace-json.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./operator-profile.routes.js";

export const submitOperatorProfileHandler: RouteHandler<
  typeof routes.submitOperatorProfile,
  GatewayEnv
> = async (c) => {
  const profile = c.req.valid("json");
  const { operator } = await callService(() =>
    c
      .get("runtime")
      .clients.marketplace.submitOperatorProfile({ profileJson: JSON.stringify(profile) }, asCaller()),
  );
  const record = operatorJson(operator);
  // One call answers both cases: a record created by this request was never updated after.
  if (record.created_at === record.updated_at) {
    c.header("Location", "/operator/profile");
    return c.json(record, 201);
  }
  return c.json(record, 200);
};

export const getMyOperatorHandler: RouteHandler<typeof routes.getMyOperator, GatewayEnv> = async (c) => {
  const { operator } = await callService(() =>
    c.get("runtime").clients.marketplace.getMyOperator({}, asCaller()),
  );
  return c.json(operatorJson(operator), 200);
};
