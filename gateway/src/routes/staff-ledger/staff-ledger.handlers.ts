import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { ledgerJson } from "../../lib/marketplace-json.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./staff-ledger.routes.js";

export const checkLedgerHandler: RouteHandler<typeof routes.checkLedger, GatewayEnv> = async (c) => {
  const check = await callService(() => c.get("runtime").clients.marketplace.checkLedger({}, asCaller()));
  return c.json(ledgerJson(check), 200);
};
