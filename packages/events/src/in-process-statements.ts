/**
 * The in-process bus's statements that run for every event and consumer, prepared (see
 * InProcessBusStore, which runs them): the claim, the acknowledgement and the append.
 */
import { FixedQuery } from "@petri/db";
import { sql } from "kysely";
import { BUS_SCHEMA, type BusTables } from "./in-process-schema.js";

interface ClaimValues extends Record<string, unknown> {
  stream: string;
  durable: string;
  /** filterPattern of the consumer's filter. */
  pattern: string;
  max: number;
  now: Date;
  deadline: Date;
}

/** A claimed delivery (seq null when none was), and the earliest later redelivery on every row. */
interface ClaimRow {
  seq: number | string | null;
  delivery_count: number | null;
  envelope: Uint8Array | null;
  next_due: Date | string | null;
}

const table = (name: keyof BusTables) => sql.table(`${BUS_SCHEMA}.${name}`);

/**
 * Joined into the bus's claim, acknowledgement and append, each a transaction of its own: it
 * commits without waiting for the WAL to reach the disk (D361). What a crash of PostgreSQL can
 * lose is the last fraction of a second of them, and only those no later synchronous commit
 * followed (WAL is flushed in order): the handler's own commit after a claim, the relay's
 * "sent" mark after an append. A lost claim or acknowledgement is a redelivery, which the
 * consumers' inbox (or an idempotent handler) absorbs; a lost append is an unsent outbox row,
 * published again.
 */
const ASYNC_COMMIT = sql`(SELECT set_config('synchronous_commit', 'off', true))`;

/**
 * The claim (see InProcessBusStore.claim), prepared: PostgreSQL plans this statement in about
 * as long as it takes to run it. The cursor is read as a scalar subquery so that the scan of
 * new messages is an index range from it, not the whole stream.
 */
export const claimStatement = new FixedQuery<BusTables, ClaimValues, ClaimRow>(
  (db, value) => ({
    compile: () =>
      sql<ClaimRow>`
      WITH consumer AS (
        SELECT cursor FROM ${table("consumers")}
        WHERE stream = ${value("stream")} AND durable = ${value("durable")} FOR UPDATE
      ),
      due AS (
        UPDATE ${table("deliveries")}
        SET delivery_count = delivery_count + 1, next_delivery_at = ${value("deadline")}
        WHERE stream = ${value("stream")} AND durable = ${value("durable")} AND seq IN (
          SELECT seq FROM ${table("deliveries")}
          WHERE stream = ${value("stream")} AND durable = ${value("durable")} AND state = 'pending'
            AND next_delivery_at <= ${value("now")}
          ORDER BY seq LIMIT ${value("max")} FOR UPDATE)
        RETURNING seq, delivery_count
      ),
      room AS (SELECT greatest(${value("max")}::int - (SELECT count(*) FROM due), 0) AS n),
      fresh AS (
        SELECT seq FROM ${table("messages")}
        WHERE stream = ${value("stream")} AND seq > (SELECT cursor FROM consumer)
          AND subject ~ ${value("pattern")}
        ORDER BY seq LIMIT (SELECT n FROM room)
      ),
      inserted AS (
        INSERT INTO ${table("deliveries")} (stream, durable, seq, delivery_count, next_delivery_at, state)
        SELECT ${value("stream")}, ${value("durable")}, seq, 1, ${value("deadline")}, 'pending' FROM fresh
        RETURNING seq, delivery_count
      ),
      moved AS (
        UPDATE ${table("consumers")} SET cursor = CASE
          WHEN (SELECT n FROM room) = 0 THEN cursor
          WHEN (SELECT count(*) FROM fresh) >= (SELECT n FROM room) THEN (SELECT max(seq) FROM fresh)
          ELSE greatest(cursor, (SELECT last_seq FROM ${table("streams")} WHERE name = ${value("stream")}))
        END
        WHERE stream = ${value("stream")} AND durable = ${value("durable")}
      )
      SELECT c.seq, c.delivery_count, c.envelope, (
        SELECT min(next_delivery_at) FROM ${table("deliveries")}
        WHERE stream = ${value("stream")} AND durable = ${value("durable")} AND state = 'pending'
          AND next_delivery_at > ${value("now")}
      ) AS next_due
      FROM ${ASYNC_COMMIT} AS always LEFT JOIN (
        SELECT claimed.seq, claimed.delivery_count, m.envelope
        FROM (SELECT seq, delivery_count FROM due UNION ALL SELECT seq, delivery_count FROM inserted) claimed
        JOIN ${table("messages")} m ON m.stream = ${value("stream")} AND m.seq = claimed.seq
      ) AS c ON true
      ORDER BY c.seq`.compile(db),
  }),
  { prepared: true },
);

/** The acknowledgement (see InProcessBusStore.settle), prepared: the delivery's row goes. */
export const ackStatement = new FixedQuery<
  BusTables,
  { stream: string; durable: string; seq: number },
  object
>(
  (db, value) => ({
    compile: () =>
      sql<object>`
      WITH acked AS (
        DELETE FROM ${table("deliveries")}
        WHERE stream = ${value("stream")} AND durable = ${value("durable")} AND seq = ${value("seq")}
          AND state = 'pending'
      )
      SELECT * FROM ${ASYNC_COMMIT} AS async_commit`.compile(db),
  }),
  { prepared: true },
);

interface AppendValues extends Record<string, unknown> {
  stream: string;
  subject: string;
  id: string;
  envelope: Uint8Array;
  publishedAt: Date;
}

/**
 * The append (see InProcessBusStore.append), prepared: the stream's sequence moves and the
 * message is stored in one statement, so a claim's snapshot that sees the new last_seq sees
 * the message too. The row lock of the bump serialises appends to a stream; a second append of
 * one id fails on messages_msg_id_uq as a whole, its bump undone with it. No row: no stream.
 */
export const appendStatement = new FixedQuery<BusTables, AppendValues, { seq: number | string }>(
  (db, value) => ({
    compile: () =>
      sql<{ seq: number | string }>`
      WITH bumped AS (
        UPDATE ${table("streams")} SET last_seq = last_seq + 1
        WHERE name = ${value("stream")}
        RETURNING last_seq
      )
      INSERT INTO ${table("messages")} (stream, seq, subject, msg_id, envelope, published_at)
      SELECT ${value("stream")}, last_seq, ${value("subject")}, ${value("id")}, ${value("envelope")},
        ${value("publishedAt")}
      FROM bumped, ${ASYNC_COMMIT} AS async_commit
      RETURNING seq`.compile(db),
  }),
  { prepared: true },
);
