/**
 * The API key format, checked before any lookup.
 *
 *   petri_sk_<32 base62 characters of randomness><6 base62 characters of checksum>
 *
 * The checksum is the CRC-32 (IEEE 802.3, as zlib computes it) of the 32 random characters
 * as ASCII, written in base62 with the alphabet 0-9 A-Z a-z, most significant digit first,
 * left-padded with "0" to 6 characters (62^6 > 2^32). A secret scanner can recognise a key
 * by its prefix and checksum with almost no false positives (GitHub's token format), and the
 * gateway rejects a mistyped or invented key without asking identity.
 *
 * Identity generates keys and validates the same format; the two must not drift (the test
 * vectors in api-key-format.test.ts pin it).
 */
import { crc32 } from "node:zlib";

export const API_KEY_PREFIX = "petri_sk_";
export const API_KEY_RANDOM_LENGTH = 32;
export const API_KEY_CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH + API_KEY_CHECKSUM_LENGTH;

export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

const SHAPE = new RegExp(
  `^${API_KEY_PREFIX}([0-9A-Za-z]{${API_KEY_RANDOM_LENGTH}})([0-9A-Za-z]{${API_KEY_CHECKSUM_LENGTH}})$`,
);

/** `value` (an unsigned 32-bit integer) in base62, left-padded to `width`. */
export function base62(value: number, width: number): string {
  let rest = value;
  let out = "";
  do {
    out = BASE62_ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, "0");
}

/** The 6-character checksum of the 32 random characters. */
export function apiKeyChecksum(random: string): string {
  return base62(crc32(Buffer.from(random, "ascii")) >>> 0, API_KEY_CHECKSUM_LENGTH);
}

/** A complete key from 32 base62 characters of randomness. */
export function formatApiKey(random: string): string {
  if (!/^[0-9A-Za-z]+$/.test(random) || random.length !== API_KEY_RANDOM_LENGTH) {
    throw new Error(`an API key needs exactly ${API_KEY_RANDOM_LENGTH} base62 characters of randomness`);
  }
  return `${API_KEY_PREFIX}${random}${apiKeyChecksum(random)}`;
}

/** True when `secret` has the prefix, the lengths, the alphabet and a matching checksum. */
export function isWellFormedApiKey(secret: string): boolean {
  if (secret.length !== API_KEY_LENGTH) return false;
  const match = SHAPE.exec(secret);
  if (!match) return false;
  return apiKeyChecksum(match[1]!) === match[2];
}
