/**
 * Webhook signing secrets at rest: HMAC needs the plaintext, so they cannot be hashed; they
 * are sealed with AES-256-GCM under a key-encryption key (KEK, PETRI_NOTIFICATIONS_KEK) held
 * outside the database.
 *
 * - A fresh random 96-bit nonce per encryption: sealing the same secret twice never gives
 *   the same ciphertext, and a nonce is never reused under one key.
 * - Associated data binds a ciphertext to its row (account and secret id): a ciphertext
 *   copied onto another account's row does not open.
 * - Each row records the KEK's id (a keyed fingerprint, not the key), so a replica started
 *   with another KEK fails with a message that says so instead of "bad tag".
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

export const KEK_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const CIPHER = "aes-256-gcm";

export interface SealedSecret {
  kekId: string;
  nonce: Uint8Array;
  /** Ciphertext followed by the 16-byte GCM tag. */
  ciphertext: Uint8Array;
}

export class SecretDecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretDecryptionError";
  }
}

/** Strict base64 (standard or URL alphabet, padding optional); undefined when malformed. */
export function decodeBase64(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const standard = trimmed.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (standard.length % 4 === 1) return undefined;
  return Buffer.from(standard, "base64");
}

export class KeyEncryptionKey {
  private constructor(
    private readonly key: Buffer,
    /** "kek_" + 16 hex characters of HMAC-SHA256(kek, label): identifies, does not reveal. */
    readonly id: string,
  ) {}

  static fromBytes(bytes: Uint8Array): KeyEncryptionKey {
    if (bytes.length !== KEK_BYTES)
      throw new RangeError(`a key-encryption key must be ${KEK_BYTES} bytes (got ${bytes.length})`);
    const key = Buffer.from(bytes);
    const id = `kek_${createHmac("sha256", key).update("petri-notifications/kek-id/v1").digest("hex").slice(0, 16)}`;
    return new KeyEncryptionKey(key, id);
  }

  seal(plaintext: Uint8Array, associatedData: string): SealedSecret {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(CIPHER, this.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    return { kekId: this.id, nonce, ciphertext };
  }

  /** Throws SecretDecryptionError when sealed under another KEK, tampered with, or for another row. */
  open(sealed: SealedSecret, associatedData: string): Buffer {
    if (sealed.kekId !== this.id)
      throw new SecretDecryptionError(
        `sealed under key-encryption key ${sealed.kekId}, but the configured one is ${this.id}`,
      );
    if (sealed.nonce.length !== NONCE_BYTES || sealed.ciphertext.length < TAG_BYTES)
      throw new SecretDecryptionError("malformed sealed secret");
    const body = Buffer.from(sealed.ciphertext);
    const decipher = createDecipheriv(CIPHER, this.key, sealed.nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(associatedData, "utf8"));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new SecretDecryptionError("sealed secret failed authentication (wrong key, row or tampered)");
    }
  }
}
