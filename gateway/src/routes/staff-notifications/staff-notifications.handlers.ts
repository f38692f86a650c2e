import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { sentMailJson, webhookDeliveryJson } from "../../lib/notifications-json.js";
import { paginationJson } from "../../lib/pagination.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./staff-notifications.routes.js";

export const listSentMailHandler: RouteHandler<typeof routes.listSentMail, GatewayEnv> = async (c) => {
  const { account_id, limit, cursor } = c.req.valid("query");
  const page = await callService(() =>
    c
      .get("runtime")
      .clients.notifications.listSentMail(
        { accountId: account_id ?? "", limit, cursor: cursor ?? "" },
        asCaller(),
      ),
  );
  return c.json({ mails: page.mails.map(sentMailJson), pagination: paginationJson(page) }, 200);
};

export const listAccountWebhookDeliveriesHandler: RouteHandler<
  typeof routes.listAccountWebhookDeliveries,
  GatewayEnv
> = async (c) => {
  const { account_id, experiment_id, status, limit, cursor } = c.req.valid("query");
  const page = await callService(() =>
    c.get("runtime").clients.notifications.listWebhookDeliveries(
      {
        accountId: account_id,
        experimentId: experiment_id ?? "",
        status: status ?? "",
        limit,
        cursor: cursor ?? "",
      },
      asCaller(),
    ),
  );
  return c.json(
    { deliveries: page.deliveries.map(webhookDeliveryJson), pagination: paginationJson(page) },
    200,
  );
};
