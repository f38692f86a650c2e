import type { Kysely, Selectable } from "kysely";
import type { SealedSecret } from "../security/key-encryption.js";
import type { IdentityDb, SigningKeysTable } from "./schema.js";

export type SigningKeyRow = Selectable<SigningKeysTable>;

export function sealedPrivateKey(row: SigningKeyRow): SealedSecret {
  return { kekId: row.kek_id, nonce: row.private_key_nonce, ciphertext: row.private_key_ciphertext };
}

export async function findActiveSigningKey(db: Kysely<IdentityDb>): Promise<SigningKeyRow | undefined> {
  return db.selectFrom("signing_keys").selectAll().where("state", "=", "active").executeTakeFirst();
}
