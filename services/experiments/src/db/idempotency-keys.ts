/**
 * Retention of the idempotency_keys table (the claim/complete protocol is @petri/db's
 * beginIdempotent/completeIdempotent). Expiry is by completion time, on the service's clock.
 */
import type { Kysely } from "kysely";
import type { ExperimentsDb } from "./schema.js";

/** Deletes one key if it completed before `cutoff`, so a reuse after expiry runs anew. */
export async function expireKey(
  db: Kysely<ExperimentsDb>,
  ref: { principal: string; key: string },
  cutoff: Date,
): Promise<void> {
  await db
    .deleteFrom("idempotency_keys")
    .where("principal", "=", ref.principal)
    .where("key", "=", ref.key)
    .where("status", "=", "completed")
    .where("completed_at", "<", cutoff)
    .execute();
}

/** Deletes every key completed before `cutoff`; returns how many. */
export async function purgeKeys(db: Kysely<ExperimentsDb>, cutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom("idempotency_keys")
    .where("status", "=", "completed")
    .where("completed_at", "<", cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * True when `ref` completed for this very request (same hash) at or after `cutoff`, i.e. the
 * request would be answered by a replay. A read without a lock, before the transaction:
 * only a hint (the transaction's claim decides).
 */
export async function completedFor(
  db: Kysely<ExperimentsDb>,
  ref: { principal: string; key: string },
  requestHash: string,
  cutoff: Date,
): Promise<boolean> {
  const row = await db
    .selectFrom("idempotency_keys")
    .select("key")
    .where("principal", "=", ref.principal)
    .where("key", "=", ref.key)
    .where("request_hash", "=", requestHash)
    .where("status", "=", "completed")
    .where("completed_at", ">=", cutoff)
    .executeTakeFirst();
  return row !== undefined;
}
