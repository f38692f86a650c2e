/**
 * Retention of the idempotency_keys table (the claim/complete protocol is @petri/db's
 * beginIdempotent/completeIdempotent). Expiry is by completion time, on the service's clock.
 */
import { type BeginIdempotentResult, beginIdempotent } from "@petri/db";
import type { Kysely } from "kysely";
import type { ExperimentsDb } from "./schema.js";

/** Deletes one key if it completed before `cutoff`, so a reuse after expiry runs anew; true if it did. */
export async function expireKey(
  db: Kysely<ExperimentsDb>,
  ref: { principal: string; key: string },
  cutoff: Date,
): Promise<boolean> {
  const result = await db
    .deleteFrom("idempotency_keys")
    .where("principal", "=", ref.principal)
    .where("key", "=", ref.key)
    .where("status", "=", "completed")
    .where("completed_at", "<", cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * beginIdempotent for a key that expires `cutoff` after completion: a key found completed
 * before the cutoff is deleted and claimed anew. The expiry is looked at only when the key is
 * already there, so a fresh key (nearly every request) costs one statement.
 */
export async function claimUnexpiredKey(
  db: Kysely<ExperimentsDb>,
  ref: { principal: string; key: string },
  requestHash: string,
  cutoff: Date,
): Promise<BeginIdempotentResult> {
  const claim = await beginIdempotent(db, { ...ref, requestHash });
  if (claim.kind === "new" || claim.kind === "in_progress") return claim;
  if (!(await expireKey(db, ref, cutoff))) return claim;
  return beginIdempotent(db, { ...ref, requestHash });
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
