import type { Clock } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { IdentityDb } from "../db/schema.js";

export interface RevocationSnapshot {
  epochs: { accountId: string; epoch: number; changedAt: Date }[];
  tokens: { accountId: string; jti: string; expiresAt: Date }[];
  accessTokenTtlSeconds: number;
}

/**
 * The revocations a verifier must still apply: epochs raised within the access-token
 * lifetime (an older raise has outlived every token it ended) and revoked tokens not yet
 * expired. The gateways load it at start and as a slow safety net behind the events.
 */
export function makeListRevocations(deps: {
  db: Kysely<IdentityDb>;
  clock: Clock;
  accessTokenTtlSeconds: number;
}) {
  return async function listRevocations(): Promise<RevocationSnapshot> {
    const now = deps.clock.now();
    const since = new Date(now.getTime() - deps.accessTokenTtlSeconds * 1000);
    const epochs = await deps.db
      .selectFrom("accounts")
      .select(["id", "credentials_epoch", "credentials_changed_at"])
      .where("credentials_changed_at", ">", since)
      .execute();
    const tokens = await deps.db
      .selectFrom("revoked_access_tokens")
      .select(["jti", "account_id", "expires_at"])
      .where("expires_at", ">", now)
      .execute();
    return {
      epochs: epochs.map((row) => ({
        accountId: row.id,
        epoch: row.credentials_epoch,
        changedAt: row.credentials_changed_at ?? now,
      })),
      tokens: tokens.map((row) => ({ accountId: row.account_id, jti: row.jti, expiresAt: row.expires_at })),
      accessTokenTtlSeconds: deps.accessTokenTtlSeconds,
    };
  };
}
