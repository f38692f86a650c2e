/**
 * The in-process bus's statements that run for every event and consumer, prepared (see
 * InProcessBusStore, which runs them): the claim, the acknowledgement and the append.
 */
import { FixedQuery } from "@petri/db";
import { sql } from "kysely";
import { BUS_SCHEMA, type BusTables } from "./in-process-schema.js";

/** The claims of one group, position by position: claim i is of consumer (stream[i], durable[i]). */
interface ClaimGroupValues extends Record<string, unknown> {
  stream: string[];
  durable: string[];
  /** filterPattern of each consumer's filter. */
  pattern: string[];
  max: number[];
  now: Date[];
  deadline: Date[];
  /** Whether each claim asks for the next due time even when it claims something. */
  askNextDue: boolean[];
}

/**
 * A claimed delivery of the group's claim `position` (1-based; seq null when that claim took
 * none), and that consumer's earliest later redelivery on every row of it.
 */
export interface ClaimGroupRow {
  position: number | string;
  seq: number | string | null;
  delivery_count: number | null;
  envelope: Uint8Array | null;
  next_due: Date | string | null;
  /** next_due was looked up (asked, or nothing was claimed): null there means none pending. */
  next_due_known: boolean;
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
 * The claims of one group (see InProcessBusStore.claim), prepared: petri_bus.claim once per
 * consumer, in the order given (the store sorts them, so that two groups lock consumers in the
 * same order).
 */
export const claimGroupStatement = new FixedQuery<BusTables, ClaimGroupValues, ClaimGroupRow>(
  (db, value) => ({
    compile: () =>
      sql<ClaimGroupRow>`
      SELECT g.position, c.claimed_seq AS seq, c.claimed_count AS delivery_count,
        c.claimed_envelope AS envelope, c.next_due, c.next_due_known
      FROM ${ASYNC_COMMIT} AS always,
        unnest(${value("stream")}::text[], ${value("durable")}::text[], ${value("pattern")}::text[],
          ${value("max")}::int[], ${value("now")}::timestamptz[], ${value("deadline")}::timestamptz[],
          ${value("askNextDue")}::boolean[])
          WITH ORDINALITY AS g(stream, durable, pattern, max, now, deadline, ask_next_due, position),
        LATERAL ${sql.raw(BUS_SCHEMA)}.claim(
          g.stream, g.durable, g.pattern, g.max, g.now, g.deadline, g.ask_next_due) AS c
      ORDER BY g.position, c.claimed_seq`.compile(db),
  }),
  { prepared: true },
);

/**
 * The acknowledgements of one group (see InProcessBusStore.settle), prepared: the deliveries'
 * rows go. The three arrays are read position by position: delivery i is
 * (stream[i], durable[i], seq[i]).
 */
export const ackStatement = new FixedQuery<
  BusTables,
  { stream: string[]; durable: string[]; seq: number[] },
  object
>(
  (db, value) => ({
    compile: () =>
      sql<object>`
      WITH acked AS (
        DELETE FROM ${table("deliveries")} d
        USING unnest(${value("stream")}::text[], ${value("durable")}::text[], ${value("seq")}::bigint[])
          AS a(stream, durable, seq)
        WHERE d.stream = a.stream AND d.durable = a.durable AND d.seq = a.seq AND d.state = 'pending'
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
