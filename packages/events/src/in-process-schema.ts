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
};

/** Brings the petri_bus schema to its newest migration (creating the schema if needed). */
export async function migrateBus(db: Database): Promise<void> {
  await migrateToLatest(db, BUS_SCHEMA, busMigrations);
}
