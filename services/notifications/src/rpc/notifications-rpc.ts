import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  CreateWebhookSecretResponseSchema,
  GetWebhookDeliveryResponseSchema,
  GetWebhookSettingsResponseSchema,
  ListSentMailResponseSchema,
  ListWebhookDeliveriesResponseSchema,
  type NotificationsService,
  ReplayWebhookDeliveryResponseSchema,
  ResumeWebhookDeliveriesResponseSchema,
  RotateWebhookSecretResponseSchema,
  TestWebhookResponseSchema,
  ValidateWebhookUrlResponseSchema,
} from "@petri/contracts/notifications";
import { caller } from "./audiences.js";
import {
  deliveryMessage,
  secretInfoMessage,
  sentMailMessage,
  settingsMessage,
} from "../contract/messages.js";
import type { NotificationsUseCases } from "./use-cases.js";

export { NOTIFICATIONS_AUDIENCES } from "./audiences.js";
export type { NotificationsUseCases } from "./use-cases.js";

type NotificationsImpl = ServiceImpl<typeof NotificationsService>;
type Handlers<K extends keyof NotificationsImpl> = Pick<NotificationsImpl, K>;

/** The NotificationsService implementation: proto <-> domain mapping only. */
export function createNotificationsRpc(useCases: NotificationsUseCases): NotificationsImpl {
  return {
    ...secretAndSettingsHandlers(useCases),
    ...deliveryHandlers(useCases),
    ...urlCheckHandlers(useCases),
    ...mailHandlers(useCases),
  } satisfies NotificationsImpl;
}

/** The caller's own webhook signing secret and delivery settings (incl. resuming a paused receiver). */
function secretAndSettingsHandlers(
  useCases: NotificationsUseCases,
): Handlers<
  "createWebhookSecret" | "rotateWebhookSecret" | "getWebhookSettings" | "resumeWebhookDeliveries"
> {
  return {
    async createWebhookSecret(_request, ctx: HandlerContext) {
      const principal = caller(ctx, "createWebhookSecret");
      const created = await useCases.createWebhookSecret(principal.accountId);
      return create(CreateWebhookSecretResponseSchema, {
        secret: created.secret,
        info: secretInfoMessage(created.info),
      });
    },

    async rotateWebhookSecret(_request, ctx: HandlerContext) {
      const principal = caller(ctx, "rotateWebhookSecret");
      const rotated = await useCases.rotateWebhookSecret(principal.accountId);
      return create(RotateWebhookSecretResponseSchema, {
        secret: rotated.secret,
        info: secretInfoMessage(rotated.info),
      });
    },

    async getWebhookSettings(_request, ctx: HandlerContext) {
      const principal = caller(ctx, "getWebhookSettings");
      const settings = await useCases.getWebhookSettings(principal.accountId);
      return create(GetWebhookSettingsResponseSchema, { settings: settingsMessage(settings) });
    },

    async resumeWebhookDeliveries(_request, ctx: HandlerContext) {
      const principal = caller(ctx, "resumeWebhookDeliveries");
      const resumed = await useCases.resumeWebhookDeliveries(principal.accountId);
      return create(ResumeWebhookDeliveriesResponseSchema, {
        settings: settingsMessage(resumed.settings),
        resumedDeliveries: BigInt(resumed.resumed),
      });
    },
  };
}

/** Webhook deliveries: listing, one with its attempts, a replay. */
function deliveryHandlers(
  useCases: NotificationsUseCases,
): Handlers<"listWebhookDeliveries" | "getWebhookDelivery" | "replayWebhookDelivery"> {
  return {
    async listWebhookDeliveries(request, ctx: HandlerContext) {
      const principal = caller(ctx, "listWebhookDeliveries");
      const page = await useCases.listWebhookDeliveries(principal, {
        experimentId: request.experimentId,
        status: request.status,
        limit: request.limit,
        cursor: request.cursor,
        accountId: request.accountId,
      });
      return create(ListWebhookDeliveriesResponseSchema, {
        deliveries: page.deliveries.map((row) => deliveryMessage(row)),
        total: BigInt(page.total),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      });
    },

    async getWebhookDelivery(request, ctx: HandlerContext) {
      const principal = caller(ctx, "getWebhookDelivery");
      const { delivery, attempts } = await useCases.getWebhookDelivery(principal, request.deliveryId);
      return create(GetWebhookDeliveryResponseSchema, { delivery: deliveryMessage(delivery, attempts) });
    },

    async replayWebhookDelivery(request, ctx: HandlerContext) {
      const principal = caller(ctx, "replayWebhookDelivery");
      const delivery = await useCases.replayWebhookDelivery(principal, request.deliveryId);
      return create(ReplayWebhookDeliveryResponseSchema, { delivery: deliveryMessage(delivery) });
    },
  };
}

/** Trying a webhook URL before registering it: a test delivery, or the SSRF check alone. */
function urlCheckHandlers(useCases: NotificationsUseCases): Handlers<"testWebhook" | "validateWebhookUrl"> {
  return {
    async testWebhook(request, ctx: HandlerContext) {
      const principal = caller(ctx, "testWebhook");
      const result = await useCases.testWebhook(principal.accountId, {
        url: request.url,
        eventType: request.eventType,
      });
      return create(TestWebhookResponseSchema, {
        success: result.success,
        responseCode: result.responseCode,
        responseTimeMs: result.responseTimeMs,
        webhookId: result.webhookId,
        error: result.error,
      });
    },

    async validateWebhookUrl(request, ctx: HandlerContext) {
      caller(ctx, "validateWebhookUrl");
      const validated = await useCases.validateWebhookUrl(request.url);
      return create(ValidateWebhookUrlResponseSchema, { url: validated.url });
    },
  };
}

/** Staff: the e-mail the service sent. */
function mailHandlers(useCases: NotificationsUseCases): Handlers<"listSentMail"> {
  return {
    async listSentMail(request, ctx: HandlerContext) {
      caller(ctx, "listSentMail");
      const page = await useCases.listSentMail({
        limit: request.limit,
        cursor: request.cursor,
        accountId: request.accountId,
      });
      return create(ListSentMailResponseSchema, {
        mails: page.mails.map(sentMailMessage),
        total: BigInt(page.total),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      });
    },
  };
}
