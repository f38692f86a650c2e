import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  API_KEY_LENGTH,
  BASE62_ALPHABET,
  apiKeyChecksum,
  base62,
  formatApiKey,
  isWellFormedApiKey,
} from "./api-key-format.js";

const randomPart = fc
  .array(fc.constantFrom(...BASE62_ALPHABET), { minLength: 32, maxLength: 32 })
  .map((chars) => chars.join(""));

describe("API key format", () => {
  // Pinned vectors (CRC-32/zlib of the 32 characters, base62 0-9A-Za-z, big-endian, padded to 6):
  // identity must produce exactly these.
  it.each([
    ["00000000000000000000000000000000", "2wjyrI"],
    ["abcdefghijklmnopqrstuvwxyzABCDEF", "1mVgZW"],
    ["ZzZzZzZzZzZzZzZzZzZzZzZzZzZzZzZz", "49odQM"],
  ])("checksum of %s is %s", (random, checksum) => {
    expect(apiKeyChecksum(random)).toBe(checksum);
    expect(formatApiKey(random)).toBe(`petri_sk_${random}${checksum}`);
    expect(isWellFormedApiKey(`petri_sk_${random}${checksum}`)).toBe(true);
  });

  it("base62 pads to the width and uses the 0-9A-Za-z alphabet", () => {
    expect(base62(0, 6)).toBe("000000");
    expect(base62(61, 6)).toBe("00000z");
    expect(base62(62, 6)).toBe("000010");
    expect(base62(0xffffffff, 6)).toBe("4gfFC3");
  });

  it("accepts every formatted key and refuses any single-character change", () => {
    fc.assert(
      fc.property(
        randomPart,
        fc.nat(),
        fc.constantFrom(...BASE62_ALPHABET, "_", "-", " "),
        (random, at, ch) => {
          const key = formatApiKey(random);
          expect(key).toHaveLength(API_KEY_LENGTH);
          expect(isWellFormedApiKey(key)).toBe(true);
          const index = at % key.length;
          fc.pre(key[index] !== ch);
          const changed = key.slice(0, index) + ch + key.slice(index + 1);
          expect(isWellFormedApiKey(changed)).toBe(false);
        },
      ),
    );
  });

  it("refuses wrong prefixes, lengths and alphabets", () => {
    const key = formatApiKey("abcdefghijklmnopqrstuvwxyzABCDEF");
    for (const bad of [
      "",
      key.slice(0, -1),
      `${key}0`,
      key.replace("petri_sk_", "petri_pk_"),
      key.replace("petri_sk_", "PETRI_SK_"),
      ` ${key}`,
      key.toUpperCase(),
    ]) {
      expect(isWellFormedApiKey(bad), bad).toBe(false);
    }
    expect(() => formatApiKey("short")).toThrow();
  });
});
