import type { UnitOfWork } from "@petri/events";
import { type Clock, ConflictError, NotFoundError, ValidationError, newId } from "@petri/service-kit";
import { type ApiKeyRecord, countActiveApiKeys, insertApiKey } from "../db/api-keys.js";
import type { IdentityDb } from "../db/schema.js";
import { MAX_ACTIVE_API_KEYS, validateApiKeyName } from "../domain/api-keys.js";
import { mintApiKey } from "../security/api-keys.js";

export interface CreateApiKeyDeps {
  clock: Clock;
  apiKeyPepper: Uint8Array;
  unitOfWork: UnitOfWork<IdentityDb>;
}

export interface CreatedApiKey {
  apiKey: ApiKeyRecord;
  /** Returned here once; only its HMAC is stored. */
  secret: string;
}

/** A new API key for the caller's account, within the per-account cap on active keys. */
export function makeCreateApiKey(deps: CreateApiKeyDeps) {
  return async function createApiKey(accountId: string, input: { name: string }): Promise<CreatedApiKey> {
    const problems = validateApiKeyName(input.name);
    if (problems.length > 0) throw new ValidationError("the API key is invalid", problems);
    const now = deps.clock.now();
    const minted = mintApiKey(deps.apiKeyPepper);
    const apiKey: ApiKeyRecord = {
      id: newId("key", now),
      account_id: accountId,
      name: input.name.trim(),
      display_prefix: minted.displayPrefix,
      created_at: now,
      revoked_at: null,
      last_used_at: null,
    };
    await deps.unitOfWork.run(async (trx) => {
      // Lock the account row: concurrent creates for one account queue here, so the cap is exact.
      const account = await trx
        .selectFrom("accounts")
        .select("id")
        .where("id", "=", accountId)
        .forUpdate()
        .executeTakeFirst();
      if (!account) throw new NotFoundError("account", accountId);
      if ((await countActiveApiKeys(trx, accountId)) >= MAX_ACTIVE_API_KEYS) {
        throw new ConflictError(
          `an account has at most ${MAX_ACTIVE_API_KEYS} active API keys; revoke one first`,
          "api_key_limit_reached",
          { limit: MAX_ACTIVE_API_KEYS },
        );
      }
      await insertApiKey(trx, { ...apiKey, secret_hash: minted.secretHash });
    });
    return { apiKey, secret: minted.secret };
  };
}
