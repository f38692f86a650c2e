import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { webhookDeliveryDetailJson, webhookDeliveryJson } from "../../lib/notifications-json.js";
import { paginationJson } from "../../lib/pagination.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./webhook-deliveries.routes.js";

export const listWebhookDeliveriesHandler: RouteHandler<
  typeof routes.listWebhookDeliveries,
  GatewayEnv
> = async (c) => {
  const { experiment_id, status, limit, cursor } = c.req.valid("query");
  const page = await callService(() =>
    c
      .get("runtime")
      .clients.notifications.listWebhookDeliveries(
        { experimentId: experiment_id ?? "", status: status ?? "", limit, cursor: cursor ?? "" },
        asCaller(),
      ),
  );
  return c.json(
    { deliveries: page.deliveries.map(webhookDeliveryJson), pagination: paginationJson(page) },
    200,
  );
};

export const listExperimentWebhookDeliveriesHandler: RouteHandler<
  typeof routes.listExperimentWebhookDeliveries,
  GatewayEnv
> = async (c) => {
  const { experiment_id } = c.req.valid("param");
  const { status, limit, cursor } = c.req.valid("query");
  const { clients } = c.get("runtime");
  // Like every /experiments/{id}/... operation, an experiment the caller may not read is 404
  // (the notifications service knows deliveries, not who owns an experiment).
  await callService(() => clients.experiments.getExperiment({ experimentId: experiment_id }, asCaller()));
  const page = await callService(() =>
    clients.notifications.listWebhookDeliveries(
      { experimentId: experiment_id, status: status ?? "", limit, cursor: cursor ?? "" },
      asCaller(),
    ),
  );
  return c.json(
    { deliveries: page.deliveries.map(webhookDeliveryJson), pagination: paginationJson(page) },
    200,
  );
};

export const getWebhookDeliveryHandler: RouteHandler<typeof routes.getWebhookDelivery, GatewayEnv> = async (
  c,
) => {
  const { delivery_id } = c.req.valid("param");
  const { delivery } = await callService(() =>
    c.get("runtime").clients.notifications.getWebhookDelivery({ deliveryId: delivery_id }, asCaller()),
  );
  return c.json(webhookDeliveryDetailJson(delivery), 200);
};

export const replayWebhookDeliveryHandler: RouteHandler<
  typeof routes.replayWebhookDelivery,
  GatewayEnv
> = async (c) => {
  const { delivery_id } = c.req.valid("param");
  const { delivery } = await callService(() =>
    c.get("runtime").clients.notifications.replayWebhookDelivery({ deliveryId: delivery_id }, asCaller()),
  );
  return c.json(webhookDeliveryJson(delivery), 202);
};
