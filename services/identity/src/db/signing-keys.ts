import { jsonb } from "@petri/db";
import type { SealedSecret } from "@petri/service-kit";
import type { Kysely, Selectable } from "kysely";
import type { NewSigningKey } from "../security/signing-keys.js";
import type { IdentityDb, SigningKeysTable } from "./schema.js";

export type SigningKeyRow = Selectable<SigningKeysTable>;

export function sealedPrivateKey(row: SigningKeyRow): SealedSecret {
  return { kekId: row.kek_id, nonce: row.private_key_nonce, ciphertext: row.private_key_ciphertext };
}

export async function findActiveSigningKey(db: Kysely<IdentityDb>): Promise<SigningKeyRow | undefined> {
  return db.selectFrom("signing_keys").selectAll().where("state", "=", "active").executeTakeFirst();
}

/** Stores a freshly generated key as the active one (the partial unique index allows one). */
export async function insertActiveSigningKey(
  db: Kysely<IdentityDb>,
  key: Pick<NewSigningKey, "kid" | "publicJwk">,
  sealed: SealedSecret,
  createdAt: Date,
): Promise<void> {
  await db
    .insertInto("signing_keys")
    .values({
      kid: key.kid,
      public_jwk: jsonb({ ...key.publicJwk }),
      private_key_ciphertext: sealed.ciphertext,
      private_key_nonce: sealed.nonce,
      kek_id: sealed.kekId,
      state: "active",
      created_at: createdAt,
      retires_at: null,
    })
    .execute();
}
