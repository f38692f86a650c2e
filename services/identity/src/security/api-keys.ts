/**
 * API key secrets, GitHub-style (docs/architecture.md section 6):
 *
 *   petri_sk_ + 32 base62 characters of randomness + 6 base62 characters of CRC32(random part)
 *
 * - The prefix lets secret scanners find leaked keys with few false positives.
 * - 32 base62 characters carry 32 * log2(62) ~ 190.5 bits, drawn without modulo bias.
 * - The checksum rejects typos and random guesses before any database lookup.
 * - Only HMAC-SHA256(pepper, secret) is stored: the secret is already high-entropy, so a fast
 *   keyed hash is enough (a slow KDF would make every request a CPU DoS vector), and the
 *   pepper lives outside the database, so a database dump alone cannot confirm a guess.
 */
import { createHmac, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

export const API_KEY_PREFIX = "petri_sk_";
export const API_KEY_RANDOM_LENGTH = 32;
export const API_KEY_CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH + API_KEY_CHECKSUM_LENGTH;
/** Shown in listings so a user can tell keys apart: the prefix and 3 random characters. */
export const API_KEY_DISPLAY_PREFIX_LENGTH = 12;
/** At least this many bytes of pepper (HMAC key). */
export const API_KEY_PEPPER_MIN_BYTES = 32;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const API_KEY_SHAPE = new RegExp(
  `^${API_KEY_PREFIX}[0-9A-Za-z]{${API_KEY_RANDOM_LENGTH}}[0-9A-Za-z]{${API_KEY_CHECKSUM_LENGTH}}$`,
);

/** `count` base62 characters, uniformly distributed (bytes >= 248 are rejected, not folded). */
export function randomBase62(count: number, random: (size: number) => Buffer = randomBytes): string {
  let out = "";
  while (out.length < count) {
    for (const byte of random(count - out.length + 8)) {
      // 248 = 4 * 62: the largest multiple of 62 that fits in a byte.
      if (byte < 248 && out.length < count) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A non-negative integer in base62, left-padded with "0" to `width` characters. */
export function toBase62(value: number, width: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a non-negative integer: ${value}`);
  let out = "";
  let rest = value;
  do {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  if (out.length > width) throw new RangeError(`${value} does not fit in ${width} base62 characters`);
  return out.padStart(width, "0");
}

/** The 6-character base62 CRC32 of the random part (62^6 > 2^32, so every CRC fits). */
export function apiKeyChecksum(randomPart: string): string {
  return toBase62(crc32(randomPart), API_KEY_CHECKSUM_LENGTH);
}

/** A new API key secret; shown to its owner once, never stored. */
export function generateApiKeySecret(random?: (size: number) => Buffer): string {
  const randomPart = randomBase62(API_KEY_RANDOM_LENGTH, random);
  return `${API_KEY_PREFIX}${randomPart}${apiKeyChecksum(randomPart)}`;
}

/**
 * True when `secret` has the shape of a Petri API key and its checksum matches. Costs no
 * I/O, so a typo or a guess is refused before any database lookup.
 */
export function isWellFormedApiKey(secret: string): boolean {
  if (secret.length !== API_KEY_LENGTH || !API_KEY_SHAPE.test(secret)) return false;
  const randomPart = secret.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH);
  const checksum = secret.slice(API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH);
  return apiKeyChecksum(randomPart) === checksum;
}

/** What a listing shows of a key: "petri_sk_" and its first 3 random characters. */
export function apiKeyDisplayPrefix(secret: string): string {
  return secret.slice(0, API_KEY_DISPLAY_PREFIX_LENGTH);
}

/**
 * The lookup value stored for a key: HMAC-SHA256(pepper, secret). The database is searched
 * by this value (unique index), so no comparison ever involves the secret itself.
 */
export function hashApiKeySecret(pepper: Uint8Array, secret: string): Buffer {
  return createHmac("sha256", pepper).update(secret, "utf8").digest();
}

export interface MintedApiKey {
  /** Shown once, to the owner. */
  secret: string;
  /** What is stored. */
  secretHash: Buffer;
  displayPrefix: string;
}

export function mintApiKey(pepper: Uint8Array): MintedApiKey {
  const secret = generateApiKeySecret();
  return { secret, secretHash: hashApiKeySecret(pepper, secret), displayPrefix: apiKeyDisplayPrefix(secret) };
}
