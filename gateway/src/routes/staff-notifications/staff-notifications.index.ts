import { createRouter } from "../../lib/create-app.js";
import { listAccountWebhookDeliveriesHandler, listSentMailHandler } from "./staff-notifications.handlers.js";
import { listAccountWebhookDeliveries, listSentMail } from "./staff-notifications.routes.js";

export const staffNotificationsRouter = createRouter({ errorPaths: true })
  .openapi(listSentMail, listSentMailHandler)
  .openapi(listAccountWebhookDeliveries, listAccountWebhookDeliveriesHandler);
