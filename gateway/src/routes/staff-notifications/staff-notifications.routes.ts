import { createRoute, z } from "@hono/zod-openapi";
import { restrictedTo } from "../../lib/access.js";
import { errorResponses, jsonResponse } from "../../lib/openapi.js";
import { cursorPageQuery } from "../../lib/pagination.js";
import { PaginationSchema } from "../experiments/experiments.schemas.js";
import {
  DeliveryStatusQuerySchema,
  ExperimentIdQuerySchema,
  WebhookDeliveryListSchema,
} from "../webhook-deliveries/webhook-deliveries.routes.js";

const accountId = (description: string) =>
  z.string().min(1).max(64).openapi({ description, example: "usr_01jd0c6r5v8q2m7x4k9w3t1b6n" });

export const ListSentMailQuerySchema = z.object({
  account_id: accountId("Only the mail sent to this account (default: every account)").optional(),
  ...cursorPageQuery,
});

export const ListAccountWebhookDeliveriesQuerySchema = z.object({
  account_id: accountId("Whose delivery log (required)"),
  experiment_id: ExperimentIdQuerySchema,
  status: DeliveryStatusQuerySchema,
  ...cursorPageQuery,
});

export const SentMailSchema = z
  .object({
    mail_id: z.string().openapi({ example: "mail_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    account_id: z.string(),
    to: z.string().openapi({ example: "ada@example.org" }),
    subject: z.string(),
    text: z.string().openapi({ description: "The plain-text body" }),
    kind: z
      .string()
      .openapi({ description: "Why it was sent, e.g. webhooks_paused", example: "webhooks_paused" }),
    transport: z.string().openapi({
      enum: ["table", "smtp"],
      description: "table: kept here only (no SMTP server configured); smtp: sent, and kept here too",
    }),
    message_id: z.string().nullable().openapi({ description: "The SMTP Message-ID (smtp only)" }),
    sent_at: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("SentMail");

export const SentMailListSchema = z
  .object({ mails: z.array(SentMailSchema), pagination: PaginationSchema })
  .openapi("SentMailList");

const staffOnly = restrictedTo("staff");

export const listSentMail = createRoute({
  method: "get",
  path: "/admin/notifications/mail",
  operationId: "listSentMail",
  tags: ["Admin"],
  summary: "The e-mails Petri sent (e.g. webhooks paused), newest first (staff only)",
  ...staffOnly,
  request: { query: ListSentMailQuerySchema },
  responses: {
    200: jsonResponse("A page of sent e-mails", SentMailListSchema),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const listAccountWebhookDeliveries = createRoute({
  method: "get",
  path: "/admin/webhooks/deliveries",
  operationId: "listAccountWebhookDeliveries",
  tags: ["Admin"],
  summary: "An account's webhook delivery log, newest first (staff only)",
  description:
    "The log GET /webhooks/deliveries shows the account itself. Staff may read any delivery (GET /webhooks/deliveries/{delivery_id}) but replay and resume only their own.",
  ...staffOnly,
  request: { query: ListAccountWebhookDeliveriesQuerySchema },
  responses: {
    200: jsonResponse("A page of deliveries", WebhookDeliveryListSchema),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});
