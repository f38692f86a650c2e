import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { paymentAnswerJson } from "../../lib/marketplace-json.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./payments.routes.js";

export const getExperimentPaymentHandler: RouteHandler<
  typeof routes.getExperimentPayment,
  GatewayEnv
> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const answer = await callService(() =>
    c.get("runtime").clients.marketplace.getExperimentPayment({ experimentId: experiment_id }, asCaller()),
  );
  return c.json(paymentAnswerJson(answer.payment, answer.postings), 200);
};
