import { createRoute, z } from "@hono/zod-openapi";
import { authenticatedAccess } from "../../lib/access.js";
import { WEBHOOK_EVENTS } from "@petri/contracts/vocabulary";
import { errorResponses, jsonResponse, lookupErrors } from "../../lib/openapi.js";
import { cursorPageQuery } from "../../lib/pagination.js";
import { ExperimentIdParamsSchema, PaginationSchema } from "../experiments/experiments.schemas.js";
import { EXPERIMENT_NOT_FOUND } from "../../lib/experiment-errors.js";

/** The delivery statuses of the notifications service (its ListWebhookDeliveries filter). */
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed", "paused"] as const;

const FAILURE_CLASSES =
  "http_status (a status other than 2xx), redirect_not_followed (a 3xx), connection_failed (no answer: refused address, DNS, connection, TLS or the 5-second deadline) or url_not_allowed (the URL breaks the URL rules; never attempted)";

const timestamp = (description: string) =>
  z.string().nullable().openapi({ format: "date-time", description });

export const DeliveryStatusQuerySchema = z
  .enum(WEBHOOK_DELIVERY_STATUSES)
  .optional()
  .openapi({ description: "Only deliveries in this status (default: all)" });

export const ExperimentIdQuerySchema = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .openapi({ description: "Only this experiment's deliveries", example: "exp_01jd0c6r5v8q2m7x4k9w3t1b6n" });

export const ListWebhookDeliveriesQuerySchema = z.object({
  experiment_id: ExperimentIdQuerySchema,
  status: DeliveryStatusQuerySchema,
  ...cursorPageQuery,
});

export const ListExperimentWebhookDeliveriesQuerySchema = z.object({
  status: DeliveryStatusQuerySchema,
  ...cursorPageQuery,
});

export const DeliveryIdParamsSchema = z.object({
  delivery_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "delivery_id", in: "path" }, example: "msg_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
});

export const WebhookDeliverySchema = z
  .object({
    delivery_id: z.string().openapi({
      description: "The delivery's id; the same value as webhook_id",
      example: "msg_01jd0c6r5v8q2m7x4k9w3t1b6n",
    }),
    webhook_id: z.string().openapi({
      description:
        "The webhook-id header of every attempt, replay and resume of this delivery (receivers deduplicate on it); equal to delivery_id",
      example: "msg_01jd0c6r5v8q2m7x4k9w3t1b6n",
    }),
    account_id: z.string(),
    experiment_id: z.string(),
    event: z.string().openapi({ enum: [...WEBHOOK_EVENTS], description: "The docs/api.md event name" }),
    experiment_version: z.int().openapi({
      description: "The experiment's version the event announced (data.version; order events by it)",
    }),
    url: z.string().openapi({ description: "The receiver (the experiment's webhook_url)" }),
    status: z.string().openapi({
      enum: [...WEBHOOK_DELIVERY_STATUSES],
      description:
        "pending (an attempt is due at next_attempt_at), succeeded, failed (the URL is not allowed; no attempt can succeed) or paused (held while the account's deliveries are paused)",
    }),
    attempt_count: z.int().openapi({ description: "Attempts so far, over every replay and resume" }),
    next_attempt_at: timestamp("When the next attempt is due (pending only)"),
    last_attempt_at: timestamp("When the last attempt was made; null before the first"),
    last_response_code: z.int().nullable().openapi({
      description: "HTTP status of the last attempt, 0 if no response came; null before the first",
    }),
    last_latency_ms: z
      .int()
      .nullable()
      .openapi({ description: "Duration of the last attempt; null before the first" }),
    last_error: z
      .string()
      .nullable()
      .openapi({ description: `Why the last attempt failed: ${FAILURE_CLASSES}; null after a success` }),
    created_at: timestamp("When the event was recorded for delivery"),
    delivered_at: timestamp("The first successful attempt of the current cycle"),
  })
  .openapi("WebhookDelivery");

export const WebhookAttemptSchema = z
  .object({
    number: z.int().openapi({ description: "1, 2, … over the delivery's whole life" }),
    trigger: z.string().openapi({
      enum: ["event", "replay", "resume"],
      description: "What started the cycle of five attempts it belongs to",
    }),
    attempted_at: timestamp("When it was made"),
    outcome: z.string().openapi({ enum: ["succeeded", "failed"] }),
    response_code: z.int().openapi({ description: "The receiver's HTTP status; 0 when no response came" }),
    latency_ms: z.int(),
    error: z
      .string()
      .nullable()
      .openapi({ description: `Why it failed: ${FAILURE_CLASSES}; null on success` }),
  })
  .openapi("WebhookAttempt");

export const WebhookDeliveryDetailSchema = WebhookDeliverySchema.extend({
  attempts: z.array(WebhookAttemptSchema).openapi({ description: "The newest 100 attempts, oldest first" }),
}).openapi("WebhookDeliveryDetail");

export const WebhookDeliveryListSchema = z
  .object({ deliveries: z.array(WebhookDeliverySchema), pagination: PaginationSchema })
  .openapi("WebhookDeliveryList");

const NOT_FOUND = "No such delivery of yours (not_found); another account's delivery is 404 too";

export const listWebhookDeliveries = createRoute({
  method: "get",
  path: "/webhooks/deliveries",
  operationId: "listWebhookDeliveries",
  tags: ["Webhooks"],
  summary: "Your webhook delivery log, newest first",
  description:
    "Every delivery of your experiments' webhooks, optionally for one experiment or in one status: status, attempts, the last response code, latency and failure class, and the next attempt time while pending. GET /webhooks/deliveries/{delivery_id} adds the attempts.",
  ...authenticatedAccess,
  request: { query: ListWebhookDeliveriesQuerySchema },
  responses: {
    200: jsonResponse("A page of deliveries", WebhookDeliveryListSchema),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const listExperimentWebhookDeliveries = createRoute({
  method: "get",
  path: "/experiments/{experiment_id}/webhook-deliveries",
  operationId: "listExperimentWebhookDeliveries",
  tags: ["Webhooks"],
  summary: "The webhook deliveries of one of your experiments, newest first",
  description:
    "The same log as GET /webhooks/deliveries?experiment_id=…, only your own deliveries (an experiment without a webhook lists none). An experiment you may not read is 404, like every /experiments/{experiment_id} operation.",
  ...authenticatedAccess,
  request: { params: ExperimentIdParamsSchema, query: ListExperimentWebhookDeliveriesQuerySchema },
  responses: {
    200: jsonResponse("A page of deliveries", WebhookDeliveryListSchema),
    ...lookupErrors(EXPERIMENT_NOT_FOUND),
  },
});

export const getWebhookDelivery = createRoute({
  method: "get",
  path: "/webhooks/deliveries/{delivery_id}",
  operationId: "getWebhookDelivery",
  tags: ["Webhooks"],
  summary: "One delivery with its attempts (status, response code, latency, times, next attempt)",
  description: "Staff may read any account's delivery.",
  ...authenticatedAccess,
  request: { params: DeliveryIdParamsSchema },
  responses: {
    200: jsonResponse("The delivery and its attempts", WebhookDeliveryDetailSchema),
    ...lookupErrors(NOT_FOUND),
  },
});

export const replayWebhookDelivery = createRoute({
  method: "post",
  path: "/webhooks/deliveries/{delivery_id}/replay",
  operationId: "replayWebhookDelivery",
  tags: ["Webhooks"],
  summary: "Send one delivery again now (same webhook-id and body, a fresh cycle of five attempts)",
  description:
    "Any of your deliveries (succeeded, failed or waiting for a retry) is queued for an attempt now; the answer is the delivery, pending, before that attempt. While the account's deliveries are paused use POST /webhooks/resume instead.",
  ...authenticatedAccess,
  request: { params: DeliveryIdParamsSchema },
  responses: {
    202: jsonResponse("The delivery, queued (status pending)", WebhookDeliverySchema),
    ...lookupErrors(NOT_FOUND, {
      extra: {
        403: "Only the account a delivery is for may replay it; staff may read but not replay another account's delivery (forbidden)",
        409: "An attempt of this delivery is in flight right now (webhook_delivery_in_flight, details.retryable true: try again in a few seconds), or the account's deliveries are paused (invalid_state, details.status paused, details.allowed_from [active]: resume instead)",
        422: "The delivery's URL breaks the URL rules (invalid_webhook_url, details.errors [{field: webhook_url, code, message}])",
      },
    }),
  },
});
