/**
 * Envelope encryption of secrets at rest (identity's signing keys, notifications' webhook
 * signing secrets): AES-256-GCM under a key-encryption key (KEK) held outside the database.
 *
 * - A fresh random 96-bit nonce per encryption: sealing the same plaintext twice never gives
 *   the same ciphertext, and a nonce is never reused under one key.
 * - Associated data binds a ciphertext to its row: a ciphertext copied onto another row does
 *   not open.
 * - Each ciphertext records the KEK's id (a keyed fingerprint, not the key), so a replica
 *   started with the wrong KEK fails with a message that says so instead of "bad tag".
 *
 * The id is "kek_" + 16 hex characters of HMAC-SHA256(kek, purpose). Each service has its
 * own purpose label (e.g. "petri-identity/kek-id/v1"); it is part of every stored row's
 * kek id, so a service's label must never change.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

export const KEK_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const CIPHER = "aes-256-gcm";

export interface SealedSecret {
  /** Id of the KEK that sealed it. */
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

export interface KeyEncryptionKeyOptions {
  /**
   * The label fingerprinted into the KEK's id, one per service (e.g.
   * "petri-identity/kek-id/v1"). Changing it changes the id, and rows sealed under the old
   * id no longer open.
   */
  purpose: string;
}

export class KeyEncryptionKey {
  private constructor(
    private readonly key: Buffer,
    /** "kek_" + 16 hex characters of HMAC-SHA256(kek, purpose): identifies, does not reveal. */
    readonly id: string,
  ) {}

  static fromBytes(bytes: Uint8Array, options: KeyEncryptionKeyOptions): KeyEncryptionKey {
    if (bytes.length !== KEK_BYTES) {
      throw new RangeError(`a key-encryption key must be ${KEK_BYTES} bytes (got ${bytes.length})`);
    }
    if (options.purpose.length === 0) throw new RangeError("a key-encryption key needs a purpose");
    const key = Buffer.from(bytes);
    const id = `kek_${createHmac("sha256", key).update(options.purpose).digest("hex").slice(0, 16)}`;
    return new KeyEncryptionKey(key, id);
  }

  static fromBase64(text: string, options: KeyEncryptionKeyOptions): KeyEncryptionKey {
    const bytes = decodeBase64(text);
    if (!bytes) throw new RangeError("a key-encryption key must be base64");
    return KeyEncryptionKey.fromBytes(bytes, options);
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
    if (sealed.kekId !== this.id) {
      throw new SecretDecryptionError(
        `sealed under key-encryption key ${sealed.kekId}, but the configured one is ${this.id}`,
      );
    }
    if (sealed.nonce.length !== NONCE_BYTES || sealed.ciphertext.length < TAG_BYTES) {
      throw new SecretDecryptionError("malformed sealed secret");
    }
    const body = Buffer.from(sealed.ciphertext);
    const tag = body.subarray(body.length - TAG_BYTES);
    const decipher = createDecipheriv(CIPHER, this.key, sealed.nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(associatedData, "utf8"));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new SecretDecryptionError("sealed secret failed authentication (wrong key, row or tampered)");
    }
  }
}
