import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { KeyEncryptionKey, SecretDecryptionError } from "./key-encryption.js";

describe("KeyEncryptionKey (K8)", () => {
  const kek = KeyEncryptionKey.fromBytes(randomBytes(32));
  const secret = Buffer.from("whsec_c2VjcmV0", "utf8");

  it("opens what it sealed, for the same row only", () => {
    const sealed = kek.seal(secret, "row-1");
    expect(kek.open(sealed, "row-1").toString("utf8")).toBe("whsec_c2VjcmV0");
    expect(() => kek.open(sealed, "row-2")).toThrow(SecretDecryptionError);
  });

  it("never seals the same secret the same way twice (fresh nonce) and never stores it in clear", () => {
    const first = kek.seal(secret, "row-1");
    const second = kek.seal(secret, "row-1");
    expect(Buffer.from(first.nonce).equals(Buffer.from(second.nonce))).toBe(false);
    expect(Buffer.from(first.ciphertext).equals(Buffer.from(second.ciphertext))).toBe(false);
    expect(Buffer.from(first.ciphertext).includes(secret)).toBe(false);
  });

  it("refuses another KEK's ciphertext by its id, and a tampered one by its tag", () => {
    const other = KeyEncryptionKey.fromBytes(randomBytes(32));
    const sealed = kek.seal(secret, "row-1");
    expect(() => other.open(sealed, "row-1")).toThrow(/sealed under key-encryption key kek_/);
    const tampered = Buffer.from(sealed.ciphertext);
    tampered[0] = tampered[0]! ^ 1;
    expect(() => kek.open({ ...sealed, ciphertext: tampered }, "row-1")).toThrow(SecretDecryptionError);
    expect(() => KeyEncryptionKey.fromBytes(randomBytes(16))).toThrow(RangeError);
  });
});
