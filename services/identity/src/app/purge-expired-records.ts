import type { Clock } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { IdentityDb } from "../db/schema.js";
import { purgeUsageBefore } from "../domain/quota.js";

export interface PurgeResult {
  quotaCounters: number;
  signingKeys: number;
  revokedTokens: number;
}

/**
 * Housekeeping, run on a timer: quota counters whose day window ended more than two days ago,
 * retiring signing keys past retires_at (no token they signed is valid any more) and revoked
 * access tokens past their expiry (no verifier would accept them anyway).
 */
export function makePurgeExpiredRecords(deps: { db: Kysely<IdentityDb>; clock: Clock }) {
  return async function purgeExpiredRecords(): Promise<PurgeResult> {
    const now = deps.clock.now();
    const counters = await deps.db
      .deleteFrom("quota_usage")
      .where("day_start", "<", purgeUsageBefore(now))
      .executeTakeFirst();
    const keys = await deps.db
      .deleteFrom("signing_keys")
      .where("state", "=", "retiring")
      .where("retires_at", "<=", now)
      .executeTakeFirst();
    const tokens = await deps.db
      .deleteFrom("revoked_access_tokens")
      .where("expires_at", "<=", now)
      .executeTakeFirst();
    return {
      quotaCounters: Number(counters.numDeletedRows),
      signingKeys: Number(keys.numDeletedRows),
      revokedTokens: Number(tokens.numDeletedRows),
    };
  };
}
