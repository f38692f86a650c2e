import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  API_KEY_LENGTH,
  API_KEY_PREFIX,
  apiKeyChecksum,
  apiKeyDisplayPrefix,
  generateApiKeySecret,
  hashApiKeySecret,
  isWellFormedApiKey,
  mintApiKey,
  randomBase62,
  toBase62,
} from "./api-keys.js";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const base62Char = fc.constantFrom(...BASE62.split(""));
const randomPart = fc.string({ unit: base62Char, minLength: 32, maxLength: 32 });
const keyFrom = (random: string) => `${API_KEY_PREFIX}${random}${apiKeyChecksum(random)}`;

describe("API key format", () => {
  it("is petri_sk_ + 32 base62 random characters + 6 base62 checksum characters", () => {
    for (let i = 0; i < 200; i += 1) {
      const secret = generateApiKeySecret();
      expect(secret).toMatch(/^petri_sk_[0-9A-Za-z]{38}$/);
      expect(secret).toHaveLength(API_KEY_LENGTH);
      expect(isWellFormedApiKey(secret)).toBe(true);
    }
  });

  it("carries at least 190 bits of randomness", () => {
    expect(32 * Math.log2(62)).toBeGreaterThanOrEqual(190);
    expect(new Set(Array.from({ length: 1000 }, () => generateApiKeySecret())).size).toBe(1000);
  });

  it("accepts every key whose checksum matches its random part", () => {
    fc.assert(fc.property(randomPart, (random) => isWellFormedApiKey(keyFrom(random))));
  });

  it("rejects any single-character change (a typo) anywhere after the prefix", () => {
    fc.assert(
      fc.property(randomPart, fc.nat({ max: 37 }), base62Char, (random, position, replacement) => {
        const key = keyFrom(random);
        const index = API_KEY_PREFIX.length + position;
        fc.pre(key[index] !== replacement);
        const typo = key.slice(0, index) + replacement + key.slice(index + 1);
        return !isWellFormedApiKey(typo);
      }),
    );
  });

  it("rejects two swapped adjacent characters in the random part", () => {
    fc.assert(
      fc.property(randomPart, fc.nat({ max: 30 }), (random, position) => {
        fc.pre(random[position] !== random[position + 1]);
        const swapped =
          random.slice(0, position) + random[position + 1] + random[position] + random.slice(position + 2);
        return !isWellFormedApiKey(`${API_KEY_PREFIX}${swapped}${apiKeyChecksum(random)}`);
      }),
    );
  });

  it("rejects wrong prefixes, lengths and characters", () => {
    const good = generateApiKeySecret();
    expect(isWellFormedApiKey(good.replace("petri_sk_", "petri_pk_"))).toBe(false);
    expect(isWellFormedApiKey(good.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${good}0`)).toBe(false);
    expect(isWellFormedApiKey(`${good.slice(0, 20)}-${good.slice(21)}`)).toBe(false);
    expect(isWellFormedApiKey("")).toBe(false);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }),
        (text) => !isWellFormedApiKey(text) || text.startsWith(API_KEY_PREFIX),
      ),
    );
  });

  it("encodes the CRC32 in 6 base62 characters, zero-padded", () => {
    expect(toBase62(0, 6)).toBe("000000");
    expect(toBase62(61, 6)).toBe("00000z");
    expect(toBase62(62, 6)).toBe("000010");
    expect(toBase62(0xffffffff, 6)).toHaveLength(6);
    expect(() => toBase62(62 ** 6, 6)).toThrow(RangeError);
    // CRC32("123456789") = 0xCBF43926, the standard check value.
    expect(apiKeyChecksum("123456789")).toBe(toBase62(0xcbf43926, 6));
  });

  it("matches the pinned vectors the gateway checks keys against (the format is a contract)", () => {
    expect(apiKeyChecksum("00000000000000000000000000000000")).toBe("2wjyrI");
    expect(apiKeyChecksum("abcdefghijklmnopqrstuvwxyzABCDEF")).toBe("1mVgZW");
    expect(apiKeyChecksum("ZzZzZzZzZzZzZzZzZzZzZzZzZzZzZzZz")).toBe("49odQM");
    expect(toBase62(0xffffffff, 6)).toBe("4gfFC3");
  });

  it("draws base62 characters without modulo bias (bytes 248..255 are skipped)", () => {
    let call = 0;
    const random = (size: number) => {
      call += 1;
      // First call: only rejected bytes, then 0 and 61 (-> "0" and "z"), then more 255s.
      return call === 1
        ? Buffer.alloc(size, 255)
        : Buffer.from([0, 61, ...new Array<number>(size).fill(255)]);
    };
    expect(randomBase62(2, random)).toBe("0z");
  });
});

describe("API key storage", () => {
  const pepper = Buffer.alloc(32, 7);

  it("stores HMAC-SHA256(pepper, secret): deterministic, pepper-dependent, never the secret", () => {
    const minted = mintApiKey(pepper);
    expect(minted.secretHash).toHaveLength(32);
    expect(hashApiKeySecret(pepper, minted.secret).equals(minted.secretHash)).toBe(true);
    expect(hashApiKeySecret(Buffer.alloc(32, 8), minted.secret).equals(minted.secretHash)).toBe(false);
    expect(minted.secretHash.toString("utf8")).not.toContain(minted.secret.slice(9));
  });

  it("shows only the prefix and 3 random characters", () => {
    const minted = mintApiKey(pepper);
    expect(minted.displayPrefix).toBe(minted.secret.slice(0, 12));
    expect(apiKeyDisplayPrefix(minted.secret)).toMatch(/^petri_sk_[0-9A-Za-z]{3}$/);
  });
});
