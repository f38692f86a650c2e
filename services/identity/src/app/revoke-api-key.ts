import { type Clock, NotFoundError, ValidationError, isId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { API_KEY_COLUMNS, type ApiKeyRecord } from "../db/api-keys.js";
import type { IdentityDb } from "../db/schema.js";

/**
 * Revokes one of the caller's keys. Idempotent: revoking a revoked key returns it unchanged.
 * Another account's key is "not found", never "forbidden", so key ids reveal nothing.
 */
export function makeRevokeApiKey(deps: { db: Kysely<IdentityDb>; clock: Clock }) {
  return async function revokeApiKey(accountId: string, apiKeyId: string): Promise<ApiKeyRecord> {
    if (apiKeyId.trim() === "")
      throw new ValidationError("the API key id is missing", [
        { field: "api_key_id", code: "missing_required", message: "api_key_id is required" },
      ]);
    if (!isId("key", apiKeyId)) throw new NotFoundError("api key", apiKeyId);
    const revoked = await deps.db
      .updateTable("api_keys")
      .set({ revoked_at: deps.clock.now() })
      .where("id", "=", apiKeyId)
      .where("account_id", "=", accountId)
      .where("revoked_at", "is", null)
      .returning(API_KEY_COLUMNS)
      .executeTakeFirst();
    if (revoked) return revoked;
    const existing = await deps.db
      .selectFrom("api_keys")
      .select(API_KEY_COLUMNS)
      .where("id", "=", apiKeyId)
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    if (!existing) throw new NotFoundError("api key", apiKeyId);
    return existing;
  };
}
