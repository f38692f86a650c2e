import type { KeyObject } from "node:crypto";
import { type KeyEncryptionKey, UnavailableError } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findActiveSigningKey, sealedPrivateKey } from "../db/signing-keys.js";
import type { IdentityDb } from "../db/schema.js";
import { openSigningKey } from "../security/signing-keys.js";

export interface ActiveSigningKey {
  kid: string;
  privateKey: KeyObject;
}

/**
 * The active signing key, read from the database on every use (so a rotation made by any
 * replica applies at once) and decrypted once per kid.
 */
export class ActiveSigningKeySource {
  private readonly opened = new Map<string, KeyObject>();

  constructor(
    private readonly db: Kysely<IdentityDb>,
    private readonly kek: KeyEncryptionKey,
  ) {}

  async current(): Promise<ActiveSigningKey> {
    const row = await findActiveSigningKey(this.db);
    if (!row) throw new UnavailableError("no active signing key yet; the service is starting");
    let privateKey = this.opened.get(row.kid);
    if (!privateKey) {
      privateKey = openSigningKey(this.kek, row.kid, sealedPrivateKey(row));
      // Only a handful of keys ever exist; drop ones no longer active to keep it that way.
      this.opened.clear();
      this.opened.set(row.kid, privateKey);
    }
    return { kid: row.kid, privateKey };
  }
}
