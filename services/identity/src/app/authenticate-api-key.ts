import { type Clock, UnauthenticatedError } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { RoleName, TierName } from "@petri/contracts/vocabulary";
import type { IdentityDb } from "../db/schema.js";
import { LAST_USED_RESOLUTION_MS, shouldRecordUse } from "../domain/api-keys.js";
import { hashApiKeySecret, isWellFormedApiKey } from "../security/api-keys.js";

export interface ApiKeyPrincipal {
  accountId: string;
  role: RoleName;
  tier: TierName;
  apiKeyId: string;
  /** The account's credentials epoch read with the role and tier. */
  credentialsEpoch: number;
}

export interface AuthenticateApiKeyDeps {
  db: Kysely<IdentityDb>;
  clock: Clock;
  apiKeyPepper: Uint8Array;
}

/** The same answer for a malformed, unknown or revoked key. */
const INVALID_API_KEY = "invalid API key";

/**
 * Resolves an API key to its account's principal. The checksum is checked first, so typos
 * and guesses cost no database access; the lookup is by HMAC, so the database never sees
 * the secret, and role and tier come from the account as it is now.
 */
export function makeAuthenticateApiKey(deps: AuthenticateApiKeyDeps) {
  return async function authenticateApiKey(secret: string): Promise<ApiKeyPrincipal> {
    if (!isWellFormedApiKey(secret)) throw new UnauthenticatedError(INVALID_API_KEY);
    const found = await deps.db
      .selectFrom("api_keys")
      .innerJoin("accounts", "accounts.id", "api_keys.account_id")
      .select([
        "api_keys.id as api_key_id",
        "api_keys.revoked_at",
        "api_keys.last_used_at",
        "accounts.id as account_id",
        "accounts.role",
        "accounts.tier",
        "accounts.credentials_epoch",
      ])
      .where("api_keys.secret_hash", "=", hashApiKeySecret(deps.apiKeyPepper, secret))
      .executeTakeFirst();
    if (!found || found.revoked_at !== null) throw new UnauthenticatedError(INVALID_API_KEY);

    const now = deps.clock.now();
    if (shouldRecordUse(found.last_used_at, now)) {
      // Guarded, so concurrent uses within the minute write once between them.
      await deps.db
        .updateTable("api_keys")
        .set({ last_used_at: now })
        .where("id", "=", found.api_key_id)
        .where((eb) =>
          eb.or([
            eb("last_used_at", "is", null),
            eb("last_used_at", "<=", new Date(now.getTime() - LAST_USED_RESOLUTION_MS)),
          ]),
        )
        .execute();
    }
    return {
      accountId: found.account_id,
      role: found.role,
      tier: found.tier,
      apiKeyId: found.api_key_id,
      credentialsEpoch: found.credentials_epoch,
    };
  };
}
