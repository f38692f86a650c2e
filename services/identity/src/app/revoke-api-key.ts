import { events } from "@petri/contracts";
import { recordEvent, type UnitOfWork } from "@petri/events";
import { type Clock, NotFoundError, ValidationError, currentTraceparent, isId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { API_KEY_COLUMNS, type ApiKeyRecord } from "../db/api-keys.js";
import type { IdentityDb } from "../db/schema.js";

/**
 * Revokes one of the caller's keys. Idempotent: revoking a revoked key returns it unchanged.
 * Another account's key is "not found", never "forbidden", so key ids reveal nothing. A
 * revocation records ApiKeyRevoked, so every gateway drops its cached answer for the key.
 */
export function makeRevokeApiKey(deps: {
  db: Kysely<IdentityDb>;
  clock: Clock;
  unitOfWork: UnitOfWork<IdentityDb>;
}) {
  return async function revokeApiKey(accountId: string, apiKeyId: string): Promise<ApiKeyRecord> {
    if (apiKeyId.trim() === "")
      throw new ValidationError("the API key id is missing", [
        { field: "api_key_id", code: "missing_required", message: "api_key_id is required" },
      ]);
    if (!isId("key", apiKeyId)) throw new NotFoundError("api key", apiKeyId);
    const now = deps.clock.now();
    const revoked = await deps.unitOfWork.run(async (trx) => {
      const row = await trx
        .updateTable("api_keys")
        .set({ revoked_at: now })
        .where("id", "=", apiKeyId)
        .where("account_id", "=", accountId)
        .where("revoked_at", "is", null)
        .returning(API_KEY_COLUMNS)
        .executeTakeFirst();
      if (row) {
        await recordEvent(
          trx,
          events.identity.apiKeyRevoked,
          { accountId, apiKeyId },
          { aggregateId: apiKeyId, aggregateVersion: 1, occurredAt: now, traceparent: currentTraceparent() },
        );
      }
      return row;
    });
    if (revoked) {
      return revoked;
    }
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
