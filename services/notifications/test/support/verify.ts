/**
 * A receiver's signature checks, written from the specifications with node:crypto only
 * (nothing from src/): docs/api.md's X-Service-Signature (HMAC-SHA256 of the raw body, keyed
 * with the secret text, lowercase hex after "sha256=") and Standard Webhooks v1 (base64
 * HMAC-SHA256 of "id.timestamp.body", keyed with the base64 part of whsec_..., with a
 * timestamp tolerance against replays).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

function equal(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

/** X-Service-Signature: true when one of its values (comma-separated) matches the secret. */
export function verifyServiceSignature(secret: string, body: Buffer, headers: Headers): boolean {
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest();
  return header(headers, "x-service-signature")
    .split(",")
    .map((value) => value.trim())
    .some(
      (value) => /^sha256=[0-9a-f]{64}$/.test(value) && equal(Buffer.from(value.slice(7), "hex"), expected),
    );
}

/** Standard Webhooks: a v1 entry matches and the timestamp is within `toleranceSeconds` of `nowSeconds`. */
export function verifyStandardSignature(
  secret: string,
  body: Buffer,
  headers: Headers,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  if (id === "" || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`, "utf8"), body]))
    .digest();
  return header(headers, "webhook-signature")
    .split(" ")
    .some((entry) => {
      const [version, mac] = entry.split(",");
      return version === "v1" && mac !== undefined && equal(Buffer.from(mac, "base64"), expected);
    });
}
