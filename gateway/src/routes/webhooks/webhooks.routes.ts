import { createRoute, z } from "@hono/zod-openapi";
import { authenticatedAccess } from "../../lib/access.js";
import { WEBHOOK_EVENTS } from "@petri/contracts/vocabulary";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi.js";

const timestamp = (description: string) =>
  z.string().nullable().openapi({ format: "date-time", description });

export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS).openapi("WebhookEvent", {
  description:
    "claimed (a lab claimed the job), started, completed (results submitted), issue (a lab reported an issue), approved, disputed",
});

export const TestWebhookBodySchema = z
  .strictObject({
    url: z.string().openapi({
      description:
        "Where to send the sample: https, no user info, at most 2,048 characters, a host whose every address is public. A URL outside these rules is 422 invalid_webhook_url (details.errors[0].code says why), checked before anything connects.",
      example: "https://example.org/petri-webhooks",
      format: "uri",
      maxLength: 2048,
    }),
    event_type: WebhookEventSchema,
  })
  .openapi("TestWebhookRequest");

export const WebhookTestResultSchema = z
  .object({
    success: z.boolean().openapi({ description: "True for a 2xx answer within 5 seconds" }),
    response_code: z.int().openapi({ description: "The receiver's HTTP status; 0 when no response came" }),
    response_time_ms: z.int().openapi({ description: "From the request to the response (or the failure)" }),
    webhook_id: z.string().openapi({
      description: "The sample's webhook-id header (msg_…); nothing is stored under it",
      example: "msg_01jd0c6r5v8q2m7x4k9w3t1b6n",
    }),
    error: z.string().nullable().openapi({
      description:
        "Why it failed: http_status (a status other than 2xx), redirect_not_followed (a 3xx; redirects are never followed) or connection_failed (no answer: a refused address, DNS, the connection, TLS and the 5-second deadline look alike); null on success",
      example: null,
    }),
  })
  .openapi("WebhookTestResult");

export const WebhookSigningSecretSchema = z
  .object({
    secret_id: z.string().openapi({ example: "whs_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    created_at: timestamp("When this secret was made"),
    revealed: z
      .boolean()
      .openapi({ description: "True once the secret was shown (POST /webhooks/secret shows it once)" }),
    previous_valid_until: timestamp(
      "During a rotation's overlap: until when the previous secret still signs (both signatures are sent); otherwise null",
    ),
  })
  .openapi("WebhookSigningSecret", { description: "The account's signing secret, without the secret" });

export const RevealedWebhookSecretSchema = z
  .object({
    secret_id: z.string().openapi({ example: "whs_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    secret: z.string().openapi({
      description:
        "The signing secret: whsec_ + base64 of 32 random bytes. Shown in this response only; keep it in your receiver's secret store.",
      example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    }),
    created_at: timestamp("When this secret was made"),
    revealed: z.boolean().openapi({ description: "Always true: it has now been shown" }),
    previous_valid_until: timestamp(
      "After a rotation: until when the previous secret keeps signing as well (24 hours); otherwise null",
    ),
  })
  .openapi("RevealedWebhookSecret");

export const WebhookSettingsSchema = z
  .object({
    paused: z.boolean().openapi({
      description:
        "True after a delivery failed its fifth attempt: the account's deliveries are held until POST /webhooks/resume",
    }),
    paused_at: timestamp("When deliveries were paused; null while they run"),
    paused_by_delivery_id: z
      .string()
      .nullable()
      .openapi({ description: "The delivery whose fifth failed attempt paused them" }),
    paused_deliveries: z.int().openapi({ description: "Deliveries held while paused (resume sends them)" }),
    signing_secret: WebhookSigningSecretSchema.nullable().openapi({
      description: "Null until the account has a secret (POST /webhooks/secret, or its first delivery)",
    }),
  })
  .openapi("WebhookSettings");

export const ResumedWebhooksSchema = WebhookSettingsSchema.extend({
  resumed_deliveries: z.int().openapi({ description: "Deliveries this call queued again (0 if not paused)" }),
}).openapi("ResumedWebhooks");

export const testWebhook = createRoute({
  method: "post",
  path: "/webhooks/test",
  operationId: "testWebhook",
  tags: ["Webhooks"],
  summary: "Send a signed sample event to a URL and report how the receiver answered",
  description:
    "The sample is signed with your account's secrets like a real delivery (X-Service-Signature and the webhook-* headers; a secret is made for the account if it has none) and carries data.test = true and an experiment id that does not exist. The URL rules of real deliveries apply. One attempt, nothing stored or retried. At most 10 tests per account per minute, refused URLs included (429 beyond, with Retry-After).",
  ...authenticatedAccess,
  request: { body: jsonBody(TestWebhookBodySchema) },
  responses: {
    200: jsonResponse(
      "What the receiver did (a failing receiver is still a 200 here)",
      WebhookTestResultSchema,
    ),
    ...errorResponses({
      authenticated: true,
      body: true,
      extra: {
        422: "The body is invalid (validation_failed) or the URL is not allowed (invalid_webhook_url, details.errors [{field: url, code, message}] with a code such as https_required or address_not_allowed)",
        429: "Also: more than 10 webhook tests by this account in the current minute (rate_limit_exceeded, details.limit 10 and details.reset)",
      },
    }),
  },
});

export const createWebhookSecret = createRoute({
  method: "post",
  path: "/webhooks/secret",
  operationId: "createWebhookSecret",
  tags: ["Webhooks"],
  summary: "Get your account's webhook signing secret, the one time it is shown",
  description:
    "Where an account obtains its secret. One secret signs every webhook of the account. If the account has none, one is made; if one was made for its first delivery (deliveries are always signed), that one is shown. Once shown it is never shown again: a second call is 409 webhook_secret_already_revealed, and a lost secret is replaced with POST /webhooks/secret/rotate.",
  ...authenticatedAccess,
  responses: {
    201: jsonResponse("The secret (shown once) and its metadata", RevealedWebhookSecretSchema, {
      secret: true,
    }),
    ...errorResponses({
      authenticated: true,
      extra: {
        409: "The secret was already shown (webhook_secret_already_revealed, details.secret_id); rotate it to get a new one",
      },
    }),
  },
});

export const rotateWebhookSecret = createRoute({
  method: "post",
  path: "/webhooks/secret/rotate",
  operationId: "rotateWebhookSecret",
  tags: ["Webhooks"],
  summary: "Replace the signing secret; the old one keeps signing for 24 hours",
  description:
    "Makes a new secret and shows it once. Until previous_valid_until (24 hours) every delivery carries both signatures (two v1 entries in webhook-signature, two values in X-Service-Signature, newest first), so the receiver can switch whenever it likes within the day. Rotating again within those 24 hours retires the oldest secret at once: never more than two sign.",
  ...authenticatedAccess,
  responses: {
    200: jsonResponse("The new secret (shown once) and the end of the overlap", RevealedWebhookSecretSchema, {
      secret: true,
    }),
    ...errorResponses({ authenticated: true }),
  },
});

export const getWebhookSettings = createRoute({
  method: "get",
  path: "/webhooks/settings",
  operationId: "getWebhookSettings",
  tags: ["Webhooks"],
  summary: "Whether your deliveries are paused, and your signing secret's metadata (never the secret)",
  ...authenticatedAccess,
  responses: {
    200: jsonResponse("The account's webhook settings", WebhookSettingsSchema),
    ...errorResponses({ authenticated: true }),
  },
});

export const resumeWebhookDeliveries = createRoute({
  method: "post",
  path: "/webhooks/resume",
  operationId: "resumeWebhookDeliveries",
  tags: ["Webhooks"],
  summary: "Lift the pause and send every held delivery now",
  description:
    "Every delivery held while paused (the one whose fifth failure paused the account, and every event since) is sent at once with its original webhook-id and a fresh cycle of five attempts. Resuming an account that is not paused changes nothing (idempotent).",
  ...authenticatedAccess,
  responses: {
    200: jsonResponse(
      "The settings, no longer paused, and how many deliveries were queued",
      ResumedWebhooksSchema,
    ),
    ...errorResponses({ authenticated: true }),
  },
});
