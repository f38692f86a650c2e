import type { MessagingTables } from "@petri/db";
import type { Kysely } from "kysely";
import type { PruneTarget } from "./pruner.js";
import type { RetentionSettings } from "./retention.js";

/**
 * What every service schema prunes: applied-event inbox rows, published outbox rows (rows the
 * relay has not sent are never touched), dead letters, and completed idempotency records (an
 * in-progress one belongs to a request still running). Each batch deletes by primary key the
 * oldest `limit` rows past the cut-off.
 */
export function messagingPruneTargets(anyDb: Kysely<any>, retention: RetentionSettings): PruneTarget[] {
  const db = anyDb as Kysely<MessagingTables>;
  return [
    {
      name: "inbox",
      retentionMs: retention.inboxMs,
      deleteBatch: (cutoff, limit) => deleteInboxBatch(db, cutoff, limit),
    },
    {
      name: "outbox",
      retentionMs: retention.sentOutboxMs,
      deleteBatch: (cutoff, limit) => deleteSentOutboxBatch(db, cutoff, limit),
    },
    {
      name: "dead_letters",
      retentionMs: retention.deadLettersMs,
      deleteBatch: (cutoff, limit) => deleteDeadLetterBatch(db, cutoff, limit),
    },
    {
      name: "idempotency_keys",
      retentionMs: retention.idempotencyMs,
      deleteBatch: (cutoff, limit) => deleteCompletedIdempotencyBatch(db, cutoff, limit),
    },
  ];
}

/** Applied-event inbox rows, oldest first. */
async function deleteInboxBatch(db: Kysely<MessagingTables>, cutoff: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("inbox")
    .where((eb) =>
      eb(
        eb.refTuple("consumer", "event_id"),
        "in",
        eb
          .selectFrom("inbox")
          .select(["consumer", "event_id"])
          .where("processed_at", "<", cutoff)
          .orderBy("processed_at")
          .limit(limit)
          .$asTuple("consumer", "event_id"),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Outbox rows the relay has sent, oldest first (unsent rows are never touched). */
async function deleteSentOutboxBatch(
  db: Kysely<MessagingTables>,
  cutoff: Date,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom("outbox")
    .where(
      "seq",
      "in",
      db
        .selectFrom("outbox")
        .select("seq")
        .where("sent_at", "is not", null)
        .where("sent_at", "<", cutoff)
        .orderBy("seq")
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Dead letters, oldest first. */
async function deleteDeadLetterBatch(
  db: Kysely<MessagingTables>,
  cutoff: Date,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom("dead_letters")
    .where(
      "id",
      "in",
      db.selectFrom("dead_letters").select("id").where("failed_at", "<", cutoff).orderBy("id").limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Completed idempotency records, oldest first (an in-progress one belongs to a request still running). */
async function deleteCompletedIdempotencyBatch(
  db: Kysely<MessagingTables>,
  cutoff: Date,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom("idempotency_keys")
    .where((eb) =>
      eb(
        eb.refTuple("principal", "key"),
        "in",
        eb
          .selectFrom("idempotency_keys")
          .select(["principal", "key"])
          .where("status", "=", "completed")
          .where("completed_at", "<", cutoff)
          .orderBy("completed_at")
          .limit(limit)
          .$asTuple("principal", "key"),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
