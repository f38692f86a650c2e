import { createHmac } from "node:crypto";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { FILE_URL_TTL_SECONDS, signFileUrl, verifyFileUrl } from "./signed-urls.js";

const KEY = new Uint8Array(32).map((_, i) => i + 1);
const OTHER_KEY = new Uint8Array(32).fill(7);
const FILE = "fil_01jf0000000000000000000000".slice(0, 30);
const OTHER_FILE = "fil_01jf0000000000000000000001".slice(0, 30);
const NOW = new Date("2026-12-03T14:05:00.400Z");
const NOW_S = Math.floor(NOW.getTime() / 1000);

function parts(url: string): { fileId: string; expires: number; signature: string } {
  const parsed = new URL(url, "https://petri.example");
  return {
    fileId: parsed.pathname.replace(/^\/files\//, ""),
    expires: Number(parsed.searchParams.get("expires")),
    signature: parsed.searchParams.get("signature") ?? "",
  };
}

const after = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe("signed file urls", () => {
  it("sign HMAC-SHA256 over <fileId>.<expires> in base64url, valid for 15 minutes", () => {
    const { url, expiresAt } = signFileUrl(KEY, FILE, NOW);
    const expires = NOW_S + FILE_URL_TTL_SECONDS;
    const expected = createHmac("sha256", KEY).update(`${FILE}.${expires}`).digest("base64url");
    expect(url).toBe(`/files/${FILE}?expires=${expires}&signature=${expected}`);
    expect(expiresAt).toEqual(new Date(expires * 1000));
    const { fileId, signature } = parts(url);
    expect(fileId).toBe(FILE);
    expect(verifyFileUrl(KEY, FILE, expires, signature, NOW)).toBe("ok");
    expect(verifyFileUrl(KEY, FILE, expires, signature, after(FILE_URL_TTL_SECONDS - 1))).toBe("ok");
  });

  it("expire at the expiry second, and only authentic urls read as expired", () => {
    const { expires, signature } = parts(signFileUrl(KEY, FILE, NOW, 60).url);
    expect(verifyFileUrl(KEY, FILE, expires, signature, new Date(expires * 1000 - 1))).toBe("ok");
    expect(verifyFileUrl(KEY, FILE, expires, signature, new Date(expires * 1000))).toBe("expired");
    expect(verifyFileUrl(KEY, FILE, expires, signature, after(86_400))).toBe("expired");
    expect(verifyFileUrl(OTHER_KEY, FILE, expires, signature, after(86_400))).toBe("invalid");
  });

  it("refuse a url whose file id, expiry or signature was changed, or signed with another key", () => {
    const { expires, signature } = parts(signFileUrl(KEY, FILE, NOW).url);
    expect(verifyFileUrl(KEY, OTHER_FILE, expires, signature, NOW)).toBe("invalid");
    expect(verifyFileUrl(KEY, FILE, expires + 3600, signature, NOW)).toBe("invalid");
    expect(verifyFileUrl(KEY, FILE, expires - 1, signature, NOW)).toBe("invalid");
    const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    expect(verifyFileUrl(KEY, FILE, expires, flipped, NOW)).toBe("invalid");
    expect(verifyFileUrl(OTHER_KEY, FILE, expires, signature, NOW)).toBe("invalid");
    const other = parts(signFileUrl(OTHER_KEY, FILE, NOW).url);
    expect(verifyFileUrl(KEY, FILE, other.expires, other.signature, NOW)).toBe("invalid");
  });

  it("refuse any single-character change of the signature", () => {
    const { expires, signature } = parts(signFileUrl(KEY, FILE, NOW).url);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    fc.assert(
      fc.property(fc.nat(signature.length - 1), fc.constantFrom(...alphabet), (at, char) => {
        fc.pre(signature[at] !== char);
        const changed = signature.slice(0, at) + char + signature.slice(at + 1);
        expect(verifyFileUrl(KEY, FILE, expires, changed, NOW)).toBe("invalid");
      }),
    );
  });

  it.each<[string, string, number, string]>([
    ["an empty file id", "", NOW_S + 60, "x".repeat(43)],
    ["a file id of another kind", "exp_01jf000000000000000000000", NOW_S + 60, "x".repeat(43)],
    ["a path in the file id", "../fil_01jf00000000000000000000", NOW_S + 60, "x".repeat(43)],
    ["NaN expiry", FILE, Number.NaN, "x".repeat(43)],
    ["a fractional expiry", FILE, NOW_S + 60.5, "x".repeat(43)],
    ["a negative expiry", FILE, -5, "x".repeat(43)],
    ["an infinite expiry", FILE, Number.POSITIVE_INFINITY, "x".repeat(43)],
    ["an empty signature", FILE, NOW_S + 60, ""],
    ["a hex signature", FILE, NOW_S + 60, "ab".repeat(32)],
    ["a padded signature", FILE, NOW_S + 60, `${"x".repeat(43)}=`],
    ["a signature with a space", FILE, NOW_S + 60, `${"x".repeat(42)} `],
    ["a signature in standard base64", FILE, NOW_S + 60, `${"x".repeat(42)}+`],
  ])("read malformed input (%s) as invalid, without throwing", (_label, fileId, expires, signature) => {
    expect(verifyFileUrl(KEY, fileId, expires, signature, NOW)).toBe("invalid");
  });

  it("refuse a non-canonical spelling of a valid signature", () => {
    const { expires, signature } = parts(signFileUrl(KEY, FILE, NOW).url);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(signature.at(-1)!);
    // The last character carries 2 unused bits; setting one still decodes to the same digest.
    const variant = signature.slice(0, -1) + alphabet[last ^ 1];
    expect(Buffer.from(variant, "base64url").equals(Buffer.from(signature, "base64url"))).toBe(true);
    expect(verifyFileUrl(KEY, FILE, expires, variant, NOW)).toBe("invalid");
  });

  it("insist on a 32-byte key, a file id, a sane lifetime and a valid clock", () => {
    expect(() => signFileUrl(new Uint8Array(16), FILE, NOW)).toThrow(/32 bytes/);
    expect(() => verifyFileUrl(new Uint8Array(33), FILE, NOW_S, "x", NOW)).toThrow(/32 bytes/);
    expect(() => signFileUrl(KEY, "../../etc/passwd", NOW)).toThrow(/not a file id/);
    expect(() => signFileUrl(KEY, FILE, NOW, 0)).toThrow(/ttlSeconds/);
    expect(() => signFileUrl(KEY, FILE, NOW, 86_401)).toThrow(/ttlSeconds/);
    expect(() => signFileUrl(KEY, FILE, new Date(Number.NaN))).toThrow(/valid date/);
  });
});
