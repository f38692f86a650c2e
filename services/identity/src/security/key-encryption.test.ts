import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { KeyEncryptionKey, SecretDecryptionError, decodeBase64 } from "./key-encryption.js";

const plaintext = Buffer.from("-----BEGIN PRIVATE KEY----- not really -----END PRIVATE KEY-----");

describe("KeyEncryptionKey (AES-256-GCM at rest)", () => {
  const kek = KeyEncryptionKey.fromBytes(randomBytes(32));

  it("round-trips", () => {
    const sealed = kek.encrypt(plaintext, "row-1");
    expect(kek.decrypt(sealed, "row-1").equals(plaintext)).toBe(true);
    expect(sealed.kekId).toBe(kek.id);
  });

  it("gives a different nonce and ciphertext every time for the same plaintext", () => {
    const sealings = Array.from({ length: 50 }, () => kek.encrypt(plaintext, "row-1"));
    expect(new Set(sealings.map((s) => Buffer.from(s.nonce).toString("hex"))).size).toBe(50);
    expect(new Set(sealings.map((s) => Buffer.from(s.ciphertext).toString("hex"))).size).toBe(50);
    for (const sealed of sealings) expect(Buffer.from(sealed.ciphertext).includes(plaintext)).toBe(false);
  });

  it("refuses another KEK, naming both ids", () => {
    const other = KeyEncryptionKey.fromBytes(randomBytes(32));
    const sealed = kek.encrypt(plaintext, "row-1");
    expect(() => other.decrypt(sealed, "row-1")).toThrow(SecretDecryptionError);
    expect(() => other.decrypt(sealed, "row-1")).toThrow(kek.id);
    // Even when the stored KEK id is forged to match, authentication fails.
    expect(() => other.decrypt({ ...sealed, kekId: other.id }, "row-1")).toThrow(/failed authentication/);
  });

  it("refuses a ciphertext moved to another row, or tampered with", () => {
    const sealed = kek.encrypt(plaintext, "row-1");
    expect(() => kek.decrypt(sealed, "row-2")).toThrow(SecretDecryptionError);
    const tampered = Buffer.from(sealed.ciphertext);
    tampered[0] = tampered[0]! ^ 1;
    expect(() => kek.decrypt({ ...sealed, ciphertext: tampered }, "row-1")).toThrow(SecretDecryptionError);
    expect(() => kek.decrypt({ ...sealed, nonce: new Uint8Array(4) }, "row-1")).toThrow(
      SecretDecryptionError,
    );
  });

  it("derives a stable id that does not reveal the key", () => {
    const bytes = randomBytes(32);
    const a = KeyEncryptionKey.fromBytes(bytes);
    expect(KeyEncryptionKey.fromBase64(bytes.toString("base64")).id).toBe(a.id);
    expect(a.id).toMatch(/^kek_[0-9a-f]{16}$/);
    expect(a.id).not.toContain(bytes.toString("hex").slice(0, 16));
    expect(KeyEncryptionKey.fromBytes(randomBytes(32)).id).not.toBe(a.id);
  });

  it("insists on exactly 32 bytes of strict base64", () => {
    expect(() => KeyEncryptionKey.fromBytes(randomBytes(16))).toThrow(RangeError);
    expect(() => KeyEncryptionKey.fromBase64("not base64!")).toThrow(RangeError);
    expect(decodeBase64("AAEC")).toEqual(Buffer.from([0, 1, 2]));
    expect(decodeBase64("_-8")).toEqual(Buffer.from([0xff, 0xef]));
    expect(decodeBase64("a b")).toBeUndefined();
    expect(decodeBase64("A")).toBeUndefined();
  });
});
