/**
 * The accounts' webhook signing secrets: generated here (32 random bytes, shown as
 * "whsec_" + base64), sealed under the KEK before they touch the database, opened only to
 * sign. The plaintext is returned to a caller exactly once (CreateWebhookSecret for the
 * first, RotateWebhookSecret for each new one) and never logged.
 */
import { randomBytes } from "node:crypto";
import { KeyEncryptionKey, newId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findCurrentSecret, insertCurrentSecret, validSecrets } from "../db/secrets.js";
import type { NotificationsDb, WebhookSecretRow } from "../db/schema.js";
import { SIGNING_SECRET_BYTES, formatSigningSecret } from "../domain/signing.js";

/**
 * The label fingerprinted into the notifications KEK id (KeyEncryptionKey.fromBytes(bytes,
 * { purpose })). Every stored secret row records that id: changing the label strands them all.
 */
export const NOTIFICATIONS_KEK_PURPOSE = "petri-notifications/kek-id/v1";

/** How long a rotated-out secret keeps signing next to the new one. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60_000;

/** Binds a ciphertext to its row: it does not open on another account's or secret's row. */
function associatedData(row: { account_id: string; id: string }): string {
  return `petri-notifications/webhook-secret/v1:${row.account_id}:${row.id}`;
}

export class SigningSecretVault {
  private kek: KeyEncryptionKey | undefined;

  /** Sets the KEK (at start: standalone mode may read it from a file first). */
  useKek(bytes: Uint8Array): void {
    this.kek = KeyEncryptionKey.fromBytes(bytes, { purpose: NOTIFICATIONS_KEK_PURPOSE });
  }

  get kekId(): string {
    return this.key().id;
  }

  private key(): KeyEncryptionKey {
    if (!this.kek) throw new Error("the notifications service has no key-encryption key yet (not started)");
    return this.kek;
  }

  /** A fresh secret for the account and its sealed row (not yet stored). */
  generate(accountId: string, now: Date): { secret: string; row: Omit<WebhookSecretRow, "retires_at"> } {
    const secret = formatSigningSecret(randomBytes(SIGNING_SECRET_BYTES));
    const id = newId("whs", now);
    const sealed = this.key().seal(
      Buffer.from(secret, "utf8"),
      associatedData({ account_id: accountId, id }),
    );
    return {
      secret,
      row: {
        id,
        account_id: accountId,
        kek_id: sealed.kekId,
        nonce: sealed.nonce,
        ciphertext: sealed.ciphertext,
        created_at: now,
        revealed_at: null,
      },
    };
  }

  open(row: WebhookSecretRow): string {
    return this.key()
      .open({ kekId: row.kek_id, nonce: row.nonce, ciphertext: row.ciphertext }, associatedData(row))
      .toString("utf8");
  }

  /**
   * The account's current secret, created (unrevealed) when it has none, so every delivery
   * is signed from the first one; the account obtains it once with CreateWebhookSecret.
   * The secret row is not locked: a caller that needs it to stay current holds the account
   * (shareAccount or lockAccount), which creating and rotating secrets lock exclusively.
   */
  async ensureCurrent(trx: Kysely<NotificationsDb>, accountId: string, now: Date): Promise<WebhookSecretRow> {
    const current = await findCurrentSecret(trx, accountId);
    if (current) return current;
    const { row } = this.generate(accountId, now);
    await insertCurrentSecret(trx, row);
    // Another transaction may have inserted first (the partial unique index): read the winner.
    const stored = await findCurrentSecret(trx, accountId);
    if (!stored) throw new Error(`account ${accountId} has no current signing secret after inserting one`);
    return stored;
  }

  /** The secrets that sign at `now`, newest first (two during a rotation's overlap). */
  async signingSecrets(db: Kysely<NotificationsDb>, accountId: string, now: Date): Promise<string[]> {
    const rows = await validSecrets(db, accountId, now);
    return rows.map((row) => this.open(row));
  }
}
