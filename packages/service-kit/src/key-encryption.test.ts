import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { KEK_BYTES, KeyEncryptionKey, SecretDecryptionError, decodeBase64 } from "./key-encryption.js";

/** The services' labels (identity's and notifications' own constants); they must never change. */
const IDENTITY = { purpose: "petri-identity/kek-id/v1" };
const NOTIFICATIONS = { purpose: "petri-notifications/kek-id/v1" };

const plaintext = Buffer.from("-----BEGIN PRIVATE KEY----- not really -----END PRIVATE KEY-----");

describe("KeyEncryptionKey (AES-256-GCM at rest)", () => {
  const kek = KeyEncryptionKey.fromBytes(randomBytes(KEK_BYTES), IDENTITY);

  it("round-trips", () => {
    const sealed = kek.seal(plaintext, "row-1");
    expect(kek.open(sealed, "row-1").equals(plaintext)).toBe(true);
    expect(sealed.kekId).toBe(kek.id);
  });

  it("gives a different nonce and ciphertext every time for the same plaintext", () => {
    const sealings = Array.from({ length: 50 }, () => kek.seal(plaintext, "row-1"));
    expect(new Set(sealings.map((s) => Buffer.from(s.nonce).toString("hex"))).size).toBe(50);
    expect(new Set(sealings.map((s) => Buffer.from(s.ciphertext).toString("hex"))).size).toBe(50);
    for (const sealed of sealings) expect(Buffer.from(sealed.ciphertext).includes(plaintext)).toBe(false);
  });

  it("refuses another KEK, naming both ids", () => {
    const other = KeyEncryptionKey.fromBytes(randomBytes(32), IDENTITY);
    const sealed = kek.seal(plaintext, "row-1");
    expect(() => other.open(sealed, "row-1")).toThrow(SecretDecryptionError);
    expect(() => other.open(sealed, "row-1")).toThrow(kek.id);
    expect(() => other.open(sealed, "row-1")).toThrow(other.id);
    // Even when the stored KEK id is forged to match, authentication fails.
    expect(() => other.open({ ...sealed, kekId: other.id }, "row-1")).toThrow(/failed authentication/);
  });

  it("refuses a ciphertext moved to another row, or tampered with", () => {
    const sealed = kek.seal(plaintext, "row-1");
    expect(() => kek.open(sealed, "row-2")).toThrow(SecretDecryptionError);
    const tampered = Buffer.from(sealed.ciphertext);
    tampered[0] = tampered[0]! ^ 1;
    expect(() => kek.open({ ...sealed, ciphertext: tampered }, "row-1")).toThrow(SecretDecryptionError);
    expect(() => kek.open({ ...sealed, nonce: new Uint8Array(4) }, "row-1")).toThrow(SecretDecryptionError);
  });

  it("derives a stable id that does not reveal the key", () => {
    const bytes = randomBytes(32);
    const a = KeyEncryptionKey.fromBytes(bytes, IDENTITY);
    expect(KeyEncryptionKey.fromBase64(bytes.toString("base64"), IDENTITY).id).toBe(a.id);
    expect(a.id).toMatch(/^kek_[0-9a-f]{16}$/);
    expect(a.id).not.toContain(bytes.toString("hex").slice(0, 16));
    expect(KeyEncryptionKey.fromBytes(randomBytes(32), IDENTITY).id).not.toBe(a.id);
  });

  it("insists on exactly 32 bytes of strict base64, and on a purpose", () => {
    expect(() => KeyEncryptionKey.fromBytes(randomBytes(16), IDENTITY)).toThrow(RangeError);
    expect(() => KeyEncryptionKey.fromBase64("not base64!", IDENTITY)).toThrow(RangeError);
    expect(() => KeyEncryptionKey.fromBytes(randomBytes(32), { purpose: "" })).toThrow(RangeError);
    expect(decodeBase64("AAEC")).toEqual(Buffer.from([0, 1, 2]));
    expect(decodeBase64("_-8")).toEqual(Buffer.from([0xff, 0xef]));
    expect(decodeBase64("a b")).toBeUndefined();
    expect(decodeBase64("A")).toBeUndefined();
  });
});

describe("KeyEncryptionKey for webhook signing secrets (K8)", () => {
  const kek = KeyEncryptionKey.fromBytes(randomBytes(32), NOTIFICATIONS);
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
    const other = KeyEncryptionKey.fromBytes(randomBytes(32), NOTIFICATIONS);
    const sealed = kek.seal(secret, "row-1");
    expect(() => other.open(sealed, "row-1")).toThrow(/sealed under key-encryption key kek_/);
    const tampered = Buffer.from(sealed.ciphertext);
    tampered[0] = tampered[0]! ^ 1;
    expect(() => kek.open({ ...sealed, ciphertext: tampered }, "row-1")).toThrow(SecretDecryptionError);
    expect(() => KeyEncryptionKey.fromBytes(randomBytes(16), NOTIFICATIONS)).toThrow(RangeError);
  });
});

describe("KeyEncryptionKey purposes (stored rows keep opening)", () => {
  // Bytes 0..31. The ids and sealed rows below were computed by the services' own
  // key-encryption modules before they were folded in here; they are what sits in
  // signing_keys.kek_id and webhook_secrets.kek_id today.
  const bytes = Uint8Array.from({ length: 32 }, (_, i) => i);

  it("gives each purpose its own id for the same key bytes", () => {
    const identity = KeyEncryptionKey.fromBytes(bytes, IDENTITY);
    const notifications = KeyEncryptionKey.fromBytes(bytes, NOTIFICATIONS);
    expect(identity.id).not.toBe(notifications.id);
    const sealed = identity.seal(plaintext, "row-1");
    expect(() => notifications.open(sealed, "row-1")).toThrow(SecretDecryptionError);
  });

  it("keeps the ids the services computed before", () => {
    expect(KeyEncryptionKey.fromBytes(bytes, IDENTITY).id).toBe("kek_4ea805f6f8bf6e4b");
    expect(KeyEncryptionKey.fromBytes(bytes, NOTIFICATIONS).id).toBe("kek_0c7470bdc4a631d6");
    expect(KeyEncryptionKey.fromBase64("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", IDENTITY).id).toBe(
      "kek_4ea805f6f8bf6e4b",
    );
  });

  it("opens rows sealed by the services' earlier code", () => {
    const identityRow = {
      kekId: "kek_4ea805f6f8bf6e4b",
      nonce: Buffer.from("30f709460c97d52f575e70a9", "hex"),
      ciphertext: Buffer.from("6b3679b4ee928d220aecea0c471c97e309114c22ae719bace2b2b569d5", "hex"),
    };
    const notificationsRow = {
      kekId: "kek_0c7470bdc4a631d6",
      nonce: Buffer.from("83d92e9ff130b7b70820677c", "hex"),
      ciphertext: Buffer.from("116819b24f2656014317c22cfa42908851e6bdd6e2b1ef92cb0c2aa3c85b", "hex"),
    };
    expect(KeyEncryptionKey.fromBytes(bytes, IDENTITY).open(identityRow, "row-1").toString("utf8")).toBe(
      "stored secret",
    );
    expect(
      KeyEncryptionKey.fromBytes(bytes, NOTIFICATIONS).open(notificationsRow, "row-1").toString("utf8"),
    ).toBe("whsec_c2VjcmV0");
  });
});
