import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { operatorAvailability } from "../../lib/experiments-json.js";
import { labMatchJson } from "../../lib/marketplace-json.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./matches.routes.js";

export const rankLabsHandler: RouteHandler<typeof routes.rankLabs, GatewayEnv> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { limit } = c.req.valid("query");
  const answer = await callService(() =>
    c.get("runtime").clients.marketplace.rankLabs({ experimentId: experiment_id, limit }, asCaller()),
  );
  return c.json(
    {
      labs: answer.labs.map(labMatchJson),
      operator_availability: operatorAvailability(answer.operatorAvailability),
    },
    200,
  );
};
