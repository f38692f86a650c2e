import { createRouter } from "../../lib/create-app.js";
import {
  createWebhookSecretHandler,
  getWebhookSettingsHandler,
  resumeWebhookDeliveriesHandler,
  rotateWebhookSecretHandler,
  testWebhookHandler,
} from "./webhooks.handlers.js";
import {
  createWebhookSecret,
  getWebhookSettings,
  resumeWebhookDeliveries,
  rotateWebhookSecret,
  testWebhook,
} from "./webhooks.routes.js";

export const webhooksRouter = createRouter({ errorPaths: true })
  .openapi(testWebhook, testWebhookHandler)
  .openapi(createWebhookSecret, createWebhookSecretHandler)
  .openapi(rotateWebhookSecret, rotateWebhookSecretHandler)
  .openapi(getWebhookSettings, getWebhookSettingsHandler)
  .openapi(resumeWebhookDeliveries, resumeWebhookDeliveriesHandler);
