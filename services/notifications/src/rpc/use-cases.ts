import type { makeCreateWebhookSecret } from "../app/create-webhook-secret.js";
import type { makeGetWebhookDelivery } from "../app/get-webhook-delivery.js";
import type { makeListSentMail } from "../app/list-sent-mail.js";
import type { makeListWebhookDeliveries } from "../app/list-webhook-deliveries.js";
import type { makeReplayWebhookDelivery } from "../app/replay-webhook-delivery.js";
import type { makeResumeWebhookDeliveries } from "../app/resume-webhook-deliveries.js";
import type { makeRotateWebhookSecret } from "../app/rotate-webhook-secret.js";
import type { makeTestWebhook } from "../app/test-webhook.js";
import type { makeValidateWebhookUrl } from "../app/validate-webhook-url.js";
import type { makeGetWebhookSettings } from "../app/get-webhook-settings.js";

/** The use cases behind the RPCs, one per procedure (service.ts builds them). */
export interface NotificationsUseCases {
  createWebhookSecret: ReturnType<typeof makeCreateWebhookSecret>;
  rotateWebhookSecret: ReturnType<typeof makeRotateWebhookSecret>;
  getWebhookSettings: ReturnType<typeof makeGetWebhookSettings>;
  listWebhookDeliveries: ReturnType<typeof makeListWebhookDeliveries>;
  getWebhookDelivery: ReturnType<typeof makeGetWebhookDelivery>;
  replayWebhookDelivery: ReturnType<typeof makeReplayWebhookDelivery>;
  resumeWebhookDeliveries: ReturnType<typeof makeResumeWebhookDeliveries>;
  testWebhook: ReturnType<typeof makeTestWebhook>;
  validateWebhookUrl: ReturnType<typeof makeValidateWebhookUrl>;
  listSentMail: ReturnType<typeof makeListSentMail>;
}
