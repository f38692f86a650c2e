import type { Kysely, Selectable } from "kysely";
import type { ApiKeysTable, IdentityDb } from "./schema.js";

export type ApiKeyRecord = Omit<Selectable<ApiKeysTable>, "secret_hash">;

/** Every column but the hash: nothing outside the lookup needs it. */
export const API_KEY_COLUMNS = [
  "id",
  "account_id",
  "name",
  "display_prefix",
  "created_at",
  "revoked_at",
  "last_used_at",
] as const;

export async function insertApiKey(
  db: Kysely<IdentityDb>,
  row: ApiKeyRecord & { secret_hash: Uint8Array },
): Promise<void> {
  await db.insertInto("api_keys").values(row).execute();
}

export async function countActiveApiKeys(db: Kysely<IdentityDb>, accountId: string): Promise<number> {
  const { n } = await db
    .selectFrom("api_keys")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("account_id", "=", accountId)
    .where("revoked_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(n);
}
