import { createRouter } from "../../lib/create-app.js";
import {
  getWebhookDeliveryHandler,
  listExperimentWebhookDeliveriesHandler,
  listWebhookDeliveriesHandler,
  replayWebhookDeliveryHandler,
} from "./webhook-deliveries.handlers.js";
import {
  getWebhookDelivery,
  listExperimentWebhookDeliveries,
  listWebhookDeliveries,
  replayWebhookDelivery,
} from "./webhook-deliveries.routes.js";

export const webhookDeliveriesRouter = createRouter({ errorPaths: true })
  .openapi(listWebhookDeliveries, listWebhookDeliveriesHandler)
  .openapi(listExperimentWebhookDeliveries, listExperimentWebhookDeliveriesHandler)
  .openapi(getWebhookDelivery, getWebhookDeliveryHandler)
  .openapi(replayWebhookDelivery, replayWebhookDeliveryHandler);
