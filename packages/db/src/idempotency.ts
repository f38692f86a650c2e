import type { Kysely, Selectable } from "kysely";
import { FixedQuery } from "./fixed-query.js";
import { jsonb } from "./json.js";
import type { JsonValue, MessagingTables } from "./messaging-tables.js";

/**
 * The helpers take `Kysely<any>` (a Kysely or Transaction over any schema that has the
 * messaging tables): Kysely's DB type parameter is invariant, so a narrower parameter type
 * would reject `Transaction<ServiceDb>`.
 */
export type IdempotencyDb = Pick<MessagingTables, "idempotency_keys">;

export interface IdempotencyKeyRef {
  /** Who sent the request (account id); keys are scoped per principal. */
  principal: string;
  /** The client's Idempotency-Key. */
  key: string;
}

export type BeginIdempotentResult =
  /** First time: this request owns the key; run it, then completeIdempotent. */
  | { kind: "new" }
  /** Already completed with the same request: answer with the stored response. */
  | { kind: "replay"; status: number; body: JsonValue | null }
  /** The key was used for a different request (request hash differs). */
  | { kind: "mismatch" }
  /** Another request with this key has claimed it and not completed (committed in_progress). */
  | { kind: "in_progress" };

type KeyValues = { principal: string; key: string };

const claimKey = new FixedQuery<IdempotencyDb, KeyValues & { request_hash: string }, { key: string }>(
  (db, value) =>
    db
      .insertInto("idempotency_keys")
      .values({
        principal: value("principal"),
        key: value("key"),
        request_hash: value("request_hash"),
        status: "in_progress",
      })
      .onConflict((conflict) => conflict.columns(["principal", "key"]).doNothing())
      .returning("key"),
  { prepared: true },
);

type StoredKey = Pick<
  Selectable<IdempotencyDb["idempotency_keys"]>,
  "request_hash" | "status" | "response_status" | "response_body"
>;

const readKey = new FixedQuery<IdempotencyDb, KeyValues, StoredKey>(
  (db, value) =>
    db
      .selectFrom("idempotency_keys")
      .select(["request_hash", "status", "response_status", "response_body"])
      .where("principal", "=", value("principal"))
      .where("key", "=", value("key")),
  { prepared: true },
);

const completeKey = new FixedQuery<
  IdempotencyDb,
  KeyValues & { response_status: number; response_body: string | null; completed_at: Date },
  { key: string }
>(
  (db, value) =>
    db
      .updateTable("idempotency_keys")
      .set({
        status: "completed",
        response_status: value("response_status"),
        response_body: value("response_body"),
        completed_at: value("completed_at"),
      })
      .where("principal", "=", value("principal"))
      .where("key", "=", value("key"))
      .where("status", "=", "in_progress")
      .returning("key"),
  { prepared: true },
);

/**
 * Claims an idempotency key: INSERT ... ON CONFLICT DO NOTHING, then, if the key existed,
 * reads it. Call inside the use case's transaction, with completeIdempotent in the same
 * transaction: a failure then rolls the claim back, and on PostgreSQL a concurrent request
 * with the same key blocks on the insert until this transaction ends, then sees "replay".
 */
export async function beginIdempotent(
  trx: Kysely<any>,
  input: IdempotencyKeyRef & { requestHash: string },
): Promise<BeginIdempotentResult> {
  const db = trx as Kysely<IdempotencyDb>;
  // The row can vanish between the two statements (a retention sweep); then claim again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await claimKey.executeTakeFirst(db, {
      principal: input.principal,
      key: input.key,
      request_hash: input.requestHash,
    });
    if (claimed) return { kind: "new" };

    const row = await readKey.executeTakeFirst(db, { principal: input.principal, key: input.key });
    if (!row) continue;
    if (row.request_hash !== input.requestHash) return { kind: "mismatch" };
    if (row.status !== "completed") return { kind: "in_progress" };
    if (row.response_status === null) {
      throw new Error(`idempotency key ${input.key} is completed without a response status`);
    }
    return { kind: "replay", status: row.response_status, body: row.response_body };
  }
  throw new Error(`idempotency key ${input.key} could not be claimed (it keeps disappearing)`);
}

/**
 * Stores the response for a key claimed by beginIdempotent ("new") and marks it completed.
 * Throws when the key is not in progress (never claimed, or already completed).
 */
export async function completeIdempotent(
  trx: Kysely<any>,
  input: IdempotencyKeyRef & { status: number; body: JsonValue | null; completedAt?: Date },
): Promise<void> {
  const db = trx as Kysely<IdempotencyDb>;
  const updated = await completeKey.executeTakeFirst(db, {
    principal: input.principal,
    key: input.key,
    response_status: input.status,
    response_body: input.body === null ? null : jsonb(input.body),
    completed_at: input.completedAt ?? new Date(),
  });
  if (!updated) {
    throw new Error(`idempotency key ${input.key} of ${input.principal} is not in progress`);
  }
}
