import type { HandlerContext } from "@connectrpc/connect";
import { kPrincipal } from "@petri/service-kit";
import { type Audience, authorize } from "../domain/authorization.js";
import type { NotificationsUseCases } from "./use-cases.js";

/**
 * Who may call each procedure (the first line of each handler checks it; the table is
 * checked against the service descriptor by notifications-rpc.test.ts). Ownership of a
 * delivery is checked by the use case, where the row is.
 */
export const NOTIFICATIONS_AUDIENCES = {
  createWebhookSecret: "account",
  rotateWebhookSecret: "account",
  getWebhookSettings: "account",
  listWebhookDeliveries: "account",
  getWebhookDelivery: "account",
  replayWebhookDelivery: "account",
  resumeWebhookDeliveries: "account",
  testWebhook: "account",
  validateWebhookUrl: "account",
  listSentMail: "staff",
} as const satisfies Record<keyof NotificationsUseCases, Audience>;

export function caller(ctx: HandlerContext, procedure: keyof typeof NOTIFICATIONS_AUDIENCES) {
  return authorize(ctx.values.get(kPrincipal), NOTIFICATIONS_AUDIENCES[procedure]);
}
