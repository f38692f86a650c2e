/**
 * Webhook signatures. Every delivery carries two schemes, computed over the exact body bytes
 * that are sent:
 *
 * - docs/api.md's `X-Service-Signature: sha256=<lowercase hex>`: HMAC-SHA256 of the raw body,
 *   keyed with the signing secret exactly as the account was shown it (its UTF-8 bytes,
 *   `whsec_` prefix included), which is what a receiver naturally passes to its HMAC.
 * - Standard Webhooks v1: `webhook-id` (the delivery id, the same on every retry),
 *   `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature: v1,<base64>`,
 *   HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the base64-decoded part of the secret
 *   after `whsec_` (the Standard Webhooks secret format), so receivers can reject replays.
 *
 * While a rotated-out secret is still valid, both secrets sign: `webhook-signature` lists
 * both entries separated by a space (the standard's rotation mechanism) and
 * `X-Service-Signature` lists both values separated by ", " (newest first); a receiver
 * accepts the delivery when any value matches. Outside a rotation each header holds exactly
 * one value.
 */
import { createHmac } from "node:crypto";

export const SIGNING_SECRET_PREFIX = "whsec_";
export const SIGNING_SECRET_BYTES = 32;

/** The shown form of a secret: "whsec_" + standard base64 of its bytes. */
export function formatSigningSecret(bytes: Uint8Array): string {
  if (bytes.length < 24 || bytes.length > 64) throw new RangeError("a signing secret is 24 to 64 bytes");
  return `${SIGNING_SECRET_PREFIX}${Buffer.from(bytes).toString("base64")}`;
}

/** The HMAC key of the Standard Webhooks signature: the bytes after the prefix. */
export function standardWebhooksKey(secret: string): Buffer {
  const encoded = secret.startsWith(SIGNING_SECRET_PREFIX)
    ? secret.slice(SIGNING_SECRET_PREFIX.length)
    : secret;
  return Buffer.from(encoded, "base64");
}

/** One X-Service-Signature value: "sha256=" + lowercase hex HMAC-SHA256(secret text, body). */
export function serviceSignature(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex")}`;
}

/** One webhook-signature entry: "v1," + base64 HMAC-SHA256(key, "{id}.{timestamp}.{body}"). */
export function standardSignature(
  secret: string,
  webhookId: string,
  timestampSeconds: number,
  body: Uint8Array,
): string {
  const mac = createHmac("sha256", standardWebhooksKey(secret))
    .update(`${webhookId}.${timestampSeconds}.`, "utf8")
    .update(body)
    .digest("base64");
  return `v1,${mac}`;
}

export interface SignatureHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
  "x-service-signature": string;
}

/**
 * The signature headers of one attempt. `secrets` are the valid secrets, newest first (one,
 * or two during a rotation's overlap); the timestamp is the attempt's, in whole seconds.
 */
export function signatureHeaders(input: {
  webhookId: string;
  attemptedAt: Date;
  body: Uint8Array;
  secrets: readonly string[];
}): SignatureHeaders {
  if (input.secrets.length === 0) throw new Error("a delivery needs at least one signing secret");
  const timestamp = Math.floor(input.attemptedAt.getTime() / 1000);
  return {
    "webhook-id": input.webhookId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": input.secrets
      .map((secret) => standardSignature(secret, input.webhookId, timestamp, input.body))
      .join(" "),
    "x-service-signature": input.secrets.map((secret) => serviceSignature(secret, input.body)).join(", "),
  };
}
