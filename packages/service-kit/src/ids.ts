import { pooledRandomBytes } from "./random-pool.js";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lower case

/**
 * A public id: "<prefix>_" + 26 base32 characters. The first 10 encode the millisecond
 * time (so ids sort by creation, which keeps b-tree inserts local); the other 16 carry
 * 80 random bits, so ids are unguessable.
 */
export function newId(prefix: string, now: Date = new Date()): string {
  let time = now.getTime();
  let timePart = "";
  for (let i = 0; i < 10; i += 1) {
    timePart = ALPHABET[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  const random = pooledRandomBytes(10);
  let randomPart = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of random) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      randomPart += ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `${prefix}_${timePart}${randomPart}`;
}

const ID_PATTERN = /^[a-z]+_[0-9a-hjkmnp-tv-z]{26}$/;

/** True when text has the shape of an id with this prefix (cheap input check before a lookup). */
export function isId(prefix: string, text: string): boolean {
  return text.startsWith(`${prefix}_`) && ID_PATTERN.test(text);
}
