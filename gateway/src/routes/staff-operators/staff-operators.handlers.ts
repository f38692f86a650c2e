import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { operatorJson } from "../../lib/marketplace-json.js";
import { optionalTotalPaginationJson } from "../../lib/pagination.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./staff-operators.routes.js";

export const listOperatorsHandler: RouteHandler<typeof routes.listOperators, GatewayEnv> = async (c) => {
  const { status, limit, cursor, include_total } = c.req.valid("query");
  const page = await callService(() =>
    c
      .get("runtime")
      .clients.marketplace.listOperators(
        { status: status ?? "", limit, cursor: cursor ?? "", includeTotal: include_total },
        asCaller(),
      ),
  );
  return c.json(
    { operators: page.operators.map(operatorJson), pagination: optionalTotalPaginationJson(page) },
    200,
  );
};

export const getOperatorHandler: RouteHandler<typeof routes.getOperator, GatewayEnv> = async (c) => {
  const { operator_id } = c.req.valid("param");
  const { operator } = await callService(() =>
    c.get("runtime").clients.marketplace.getOperator({ operatorId: operator_id }, asCaller()),
  );
  return c.json(operatorJson(operator), 200);
};

export const verifyOperatorHandler: RouteHandler<typeof routes.verifyOperator, GatewayEnv> = async (c) => {
  const { operator_id } = c.req.valid("param");
  const verification = c.req.valid("json");
  const { operator } = await callService(() =>
    c
      .get("runtime")
      .clients.marketplace.verifyOperator(
        { operatorId: operator_id, verificationJson: JSON.stringify(verification) },
        asCaller(),
      ),
  );
  return c.json(operatorJson(operator), 200);
};

export const rejectOperatorHandler: RouteHandler<typeof routes.rejectOperator, GatewayEnv> = async (c) => {
  const { operator_id } = c.req.valid("param");
  const { reason } = c.req.valid("json");
  const { operator } = await callService(() =>
    c.get("runtime").clients.marketplace.rejectOperator({ operatorId: operator_id, reason }, asCaller()),
  );
  return c.json(operatorJson(operator), 200);
};

export const suspendOperatorHandler: RouteHandler<typeof routes.suspendOperator, GatewayEnv> = async (c) => {
  const { operator_id } = c.req.valid("param");
  const { reason } = c.req.valid("json");
  const { operator } = await callService(() =>
    c.get("runtime").clients.marketplace.suspendOperator({ operatorId: operator_id, reason }, asCaller()),
  );
  return c.json(operatorJson(operator), 200);
};

export const reinstateOperatorHandler: RouteHandler<typeof routes.reinstateOperator, GatewayEnv> = async (
  c,
) => {
  const { operator_id } = c.req.valid("param");
  const { operator } = await callService(() =>
    c.get("runtime").clients.marketplace.reinstateOperator({ operatorId: operator_id }, asCaller()),
  );
  return c.json(operatorJson(operator), 200);
};
