/**
 * Short-lived signed download urls for result files: `/files/<fileId>?expires=<unix>&signature=<sig>`.
 *
 * The signature is HMAC-SHA256 under a 32-byte key over `<fileId>.<expires>`, written in
 * base64url without padding (43 characters). File ids contain no ".", so the signed text names one
 * (file, expiry) pair only. Anyone holding the url may download until it expires, like a
 * pre-signed S3 url; reading the results record hands out fresh ones.
 *
 * verifyFileUrl checks the signature first, in constant time, and only then the expiry: "expired"
 * is said of authentic urls only, so a forged or altered url always reads "invalid".
 */
import { createHmac, timingSafeEqual } from "node:crypto";

import { isId } from "@petri/service-kit";

export const FILE_URL_TTL_SECONDS = 900;
export const FILE_URL_KEY_BYTES = 32;
/** Longest accepted lifetime: a day. Results urls are meant to be short-lived. */
export const MAX_FILE_URL_TTL_SECONDS = 86_400;

const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

function checkKey(key: Uint8Array): void {
  if (!(key instanceof Uint8Array) || key.byteLength !== FILE_URL_KEY_BYTES) {
    throw new RangeError(`the file url key must be ${FILE_URL_KEY_BYTES} bytes`);
  }
}

function unixSeconds(now: Date): number {
  const ms = now.getTime();
  if (Number.isNaN(ms)) throw new RangeError("now is not a valid date");
  return Math.floor(ms / 1000);
}

function sign(key: Uint8Array, fileId: string, expires: number): Buffer {
  return createHmac("sha256", key).update(`${fileId}.${expires}`, "utf8").digest();
}

export function signFileUrl(
  key: Uint8Array,
  fileId: string,
  now: Date,
  ttlSeconds: number = FILE_URL_TTL_SECONDS,
): { url: string; expiresAt: Date } {
  checkKey(key);
  if (!isId("fil", fileId))
    throw new RangeError(`not a file id: ${JSON.stringify(String(fileId).slice(0, 100))}`);
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_FILE_URL_TTL_SECONDS) {
    throw new RangeError(`ttlSeconds must be a whole number from 1 to ${MAX_FILE_URL_TTL_SECONDS}`);
  }
  const expires = unixSeconds(now) + ttlSeconds;
  const signature = sign(key, fileId, expires).toString("base64url");
  return {
    url: `/files/${fileId}?expires=${expires}&signature=${signature}`,
    expiresAt: new Date(expires * 1000),
  };
}

export type FileUrlCheck = "ok" | "expired" | "invalid";

/**
 * Checks the parts of a signed url as received (the gateway parses the query; `expires` may be
 * NaN when it was not a number). Malformed parts are "invalid", never an exception.
 */
export function verifyFileUrl(
  key: Uint8Array,
  fileId: string,
  expires: number,
  signature: string,
  now: Date,
): FileUrlCheck {
  checkKey(key);
  if (typeof fileId !== "string" || !isId("fil", fileId)) return "invalid";
  if (typeof expires !== "number" || !Number.isSafeInteger(expires) || expires <= 0) return "invalid";
  if (typeof signature !== "string" || !SIGNATURE.test(signature)) return "invalid";
  const given = Buffer.from(signature, "base64url");
  // A 43-character text can hide extra low bits; only the canonical spelling of the digest counts.
  if (given.byteLength !== 32 || given.toString("base64url") !== signature) return "invalid";
  if (!timingSafeEqual(given, sign(key, fileId, expires))) return "invalid";
  return unixSeconds(now) < expires ? "ok" : "expired";
}
