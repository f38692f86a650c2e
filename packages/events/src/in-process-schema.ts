import { migrateToLatest, type Database } from "@petri/db";
import { sql, type Kysely, type Migration } from "kysely";

/** The schema the in-process bus keeps its streams, messages and consumer state in. */
export const BUS_SCHEMA = "petri_bus";

/** bigint columns come back as string from pg and as number from PGlite: always Number() them. */
type Int8 = number | string;

export interface BusTables {
  streams: { name: string; subjects: string; last_seq: Int8; created_at: Date };
  messages: {
    stream: string;
    seq: Int8;
    subject: string;
    msg_id: string;
    envelope: Uint8Array;
    published_at: Date;
  };
  consumers: {
    stream: string;
    durable: string;
    filter_subject: string;
    ack_wait_ms: number;
    /** Highest stream seq this consumer has looked at; later ones are not yet delivered. */
    cursor: Int8;
    created_at: Date;
  };
  /** One row per delivered-but-unacknowledged (pending) or terminated message. */
  deliveries: {
    stream: string;
    durable: string;
    seq: Int8;
    delivery_count: number;
    next_delivery_at: Date;
    state: "pending" | "termed";
  };
}

export const busMigrations: Record<string, Migration> = {
  "2026_01_01_0000_bus": {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable("streams")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("subjects", "text", (c) => c.notNull())
        .addColumn("last_seq", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable("messages")
        .addColumn("stream", "text", (c) => c.notNull())
        .addColumn("seq", "bigint", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("msg_id", "text", (c) => c.notNull())
        .addColumn("envelope", "bytea", (c) => c.notNull())
        .addColumn("published_at", "timestamptz", (c) => c.notNull())
        .addPrimaryKeyConstraint("messages_pk", ["stream", "seq"])
        .addUniqueConstraint("messages_msg_id_uq", ["stream", "msg_id"])
        .execute();
      await db.schema
        .createTable("consumers")
        .addColumn("stream", "text", (c) => c.notNull())
        .addColumn("durable", "text", (c) => c.notNull())
        .addColumn("filter_subject", "text", (c) => c.notNull())
        .addColumn("ack_wait_ms", "integer", (c) => c.notNull())
        .addColumn("cursor", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("consumers_pk", ["stream", "durable"])
        .execute();
      await db.schema
        .createTable("deliveries")
        .addColumn("stream", "text", (c) => c.notNull())
        .addColumn("durable", "text", (c) => c.notNull())
        .addColumn("seq", "bigint", (c) => c.notNull())
        .addColumn("delivery_count", "integer", (c) => c.notNull())
        .addColumn("next_delivery_at", "timestamptz", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("deliveries_pk", ["stream", "durable", "seq"])
        .execute();
      await db.schema
        .createIndex("deliveries_due_idx")
        .on("deliveries")
        .columns(["stream", "durable", "state", "next_delivery_at"])
        .execute();
    },
  },
  "2026_11_29_0000_claim_function": {
    // A claim for many consumers in one statement (D362): a function, so that one statement can
    // run the claim's data-modifying steps once per consumer of a group.
    async up(db: Kysely<any>): Promise<void> {
      await sql`${sql.raw(CLAIM_FUNCTION)}`.execute(db);
    },
  },
  "2026_11_30_0000_claim_plan": {
    // The claim's plan (D363). Left to itself, PL/pgSQL's plan cache kept planning the
    // statement anew for every call (its custom plans, made with the call's values, looked
    // cheaper than the generic one): about 0.75 ms of planning for a claim whose execution takes
    // 0.1 ms. The generic plan is made once per connection, with the cursor and the room unknown
    // and the messages table's statistics often stale; then the planner read the new messages
    // with a bitmap scan and sorted them, every message past the cursor for each claim (651 rows
    // for 8 behind a backlog, under POST load), where an index scan in sequence order stops at
    // the claim's room. Every read of the function is by key, so the function forbids the two
    // plans that do not stop early.
    async up(db: Kysely<any>): Promise<void> {
      await sql`${sql.raw(
        `ALTER FUNCTION ${BUS_SCHEMA}.claim(text, text, text, int, timestamptz, timestamptz, boolean)
         SET plan_cache_mode = force_generic_plan SET enable_bitmapscan = off SET enable_seqscan = off`,
      )}`.execute(db);
    },
  },
};

/**
 * petri_bus.claim(stream, durable, pattern, max, now, deadline, ask_next_due): one consumer's
 * claim (see InProcessBusStore.claim). Always at least one row: the claimed deliveries (seq null
 * when none was), each with when the consumer's earliest later redelivery falls due, looked up
 * only when asked or when nothing was claimed (next_due_known says which). The function's plan
 * settings (one generic plan per connection, no bitmap or sequential scans) are set by the
 * migration 2026_11_30_0000_claim_plan (D363).
 */
const CLAIM_FUNCTION = `
CREATE OR REPLACE FUNCTION ${BUS_SCHEMA}.claim(
  p_stream text, p_durable text, p_pattern text, p_max int, p_now timestamptz, p_deadline timestamptz,
  p_ask_next_due boolean)
RETURNS TABLE (claimed_seq bigint, claimed_count int, claimed_envelope bytea, next_due timestamptz,
  next_due_known boolean)
LANGUAGE plpgsql VOLATILE AS $claim$
BEGIN
  RETURN QUERY
  WITH consumer AS (
    SELECT c.cursor FROM ${BUS_SCHEMA}.consumers c
    WHERE c.stream = p_stream AND c.durable = p_durable FOR UPDATE
  ),
  -- Materialised and joined on the key: as a "seq IN (...)" semi-join the planner ran the
  -- locking subquery once per pending delivery of the consumer.
  due_rows AS MATERIALIZED (
    SELECT p.seq FROM ${BUS_SCHEMA}.deliveries p
    WHERE p.stream = p_stream AND p.durable = p_durable AND p.state = 'pending'
      AND p.next_delivery_at <= p_now
    ORDER BY p.seq LIMIT p_max FOR UPDATE
  ),
  due AS (
    UPDATE ${BUS_SCHEMA}.deliveries d
    SET delivery_count = d.delivery_count + 1, next_delivery_at = p_deadline
    FROM due_rows
    WHERE d.stream = p_stream AND d.durable = p_durable AND d.seq = due_rows.seq
    RETURNING d.seq, d.delivery_count
  ),
  room AS (SELECT greatest(p_max - (SELECT count(*) FROM due), 0) AS n),
  fresh AS (
    SELECT m.seq FROM ${BUS_SCHEMA}.messages m
    WHERE m.stream = p_stream AND m.seq > (SELECT consumer.cursor FROM consumer)
      AND m.subject ~ p_pattern
    ORDER BY m.seq LIMIT (SELECT room.n FROM room)
  ),
  inserted AS (
    INSERT INTO ${BUS_SCHEMA}.deliveries AS d (stream, durable, seq, delivery_count, next_delivery_at, state)
    SELECT p_stream, p_durable, fresh.seq, 1, p_deadline, 'pending' FROM fresh
    RETURNING d.seq, d.delivery_count
  ),
  moved AS (
    UPDATE ${BUS_SCHEMA}.consumers c SET cursor = CASE
      WHEN (SELECT room.n FROM room) = 0 THEN c.cursor
      WHEN (SELECT count(*) FROM fresh) >= (SELECT room.n FROM room) THEN (SELECT max(fresh.seq) FROM fresh)
      ELSE greatest(c.cursor, (SELECT s.last_seq FROM ${BUS_SCHEMA}.streams s WHERE s.name = p_stream))
    END
    WHERE c.stream = p_stream AND c.durable = p_durable
  )
  -- The lookup of the next due time walks every delivery acknowledged within the last ack wait
  -- until vacuum removes its index entry: asked only when the loop does not know it (D362).
  SELECT claimed.seq, claimed.delivery_count, m.envelope,
    CASE WHEN known.yes THEN (
      SELECT min(p.next_delivery_at) FROM ${BUS_SCHEMA}.deliveries p
      WHERE p.stream = p_stream AND p.durable = p_durable AND p.state = 'pending'
        AND p.next_delivery_at > p_now
    ) END,
    known.yes
  FROM (SELECT p_ask_next_due OR ((SELECT count(*) FROM due) + (SELECT count(*) FROM inserted) = 0) AS yes)
    AS known
  LEFT JOIN (SELECT due.seq, due.delivery_count FROM due
             UNION ALL SELECT inserted.seq, inserted.delivery_count FROM inserted) AS claimed ON true
  LEFT JOIN ${BUS_SCHEMA}.messages m ON m.stream = p_stream AND m.seq = claimed.seq
  ORDER BY claimed.seq;
END
$claim$`;

/** Brings the petri_bus schema to its newest migration (creating the schema if needed). */
export async function migrateBus(db: Database): Promise<void> {
  await migrateToLatest(db, BUS_SCHEMA, busMigrations);
}
