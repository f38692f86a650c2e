import type { RouteHandler } from "@hono/zod-openapi";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import {
  resumedJson,
  revealedSecretJson,
  webhookSettingsJson,
  webhookTestJson,
} from "../../lib/notifications-json.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./webhooks.routes.js";

export const testWebhookHandler: RouteHandler<typeof routes.testWebhook, GatewayEnv> = async (c) => {
  const { url, event_type } = c.req.valid("json");
  const result = await callService(() =>
    c.get("runtime").clients.notifications.testWebhook({ url, eventType: event_type }, asCaller()),
  );
  return c.json(webhookTestJson(result), 200);
};

export const createWebhookSecretHandler: RouteHandler<typeof routes.createWebhookSecret, GatewayEnv> = async (
  c,
) => {
  const created = await callService(() =>
    c.get("runtime").clients.notifications.createWebhookSecret({}, asCaller()),
  );
  c.header("Cache-Control", "no-store");
  return c.json(revealedSecretJson(created), 201);
};

export const rotateWebhookSecretHandler: RouteHandler<typeof routes.rotateWebhookSecret, GatewayEnv> = async (
  c,
) => {
  const rotated = await callService(() =>
    c.get("runtime").clients.notifications.rotateWebhookSecret({}, asCaller()),
  );
  c.header("Cache-Control", "no-store");
  return c.json(revealedSecretJson(rotated), 200);
};

export const getWebhookSettingsHandler: RouteHandler<typeof routes.getWebhookSettings, GatewayEnv> = async (
  c,
) => {
  const { settings } = await callService(() =>
    c.get("runtime").clients.notifications.getWebhookSettings({}, asCaller()),
  );
  return c.json(webhookSettingsJson(settings), 200);
};

export const resumeWebhookDeliveriesHandler: RouteHandler<
  typeof routes.resumeWebhookDeliveries,
  GatewayEnv
> = async (c) => {
  const resumed = await callService(() =>
    c.get("runtime").clients.notifications.resumeWebhookDeliveries({}, asCaller()),
  );
  return c.json(resumedJson(resumed), 200);
};
