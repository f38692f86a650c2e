/**
 * Retention pruning of the messaging tables, on PGlite (standalone) and PostgreSQL (cluster):
 * rows past retention go, younger rows and unsent outbox rows stay, every DELETE is bounded,
 * and the runtime's loop prunes on the service clock.
 */
import { createDatabase, createMessagingTables, migrateToLatest, type Database } from "@petri/db";
import type { Logger } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messagingPruneTargets } from "../src/messaging-pruning.js";
import { Pruner, type PruneTarget } from "../src/pruner.js";
import { DEFAULT_RETENTION, type RetentionSettings } from "../src/retention.js";
import { FakeClock, createTestDatabase, type TestDatabase } from "./support/testkit.js";
import { postgresAvailable, requireInfra } from "@petri/testkit";
import { eventually, testLogger } from "./support/wait.js";

const HOUR = 3600_000;
const pgReady = requireInfra("PostgreSQL", await postgresAvailable());

const engines = [
  {
    name: "PGlite",
    skip: false,
    open: async () => ({
      database: await createDatabase({ driver: "pglite", dataDir: "memory://" }),
      drop: async () => undefined,
    }),
  },
  {
    name: "PostgreSQL",
    skip: !pgReady,
    open: async () => {
      const pg: TestDatabase = await createTestDatabase();
      return {
        database: await createDatabase({ driver: "pg", url: pg.url, poolMax: 4 }),
        drop: () => pg.drop(),
      };
    },
  },
];

const logger = testLogger() as unknown as Logger;
const retention: RetentionSettings = { ...DEFAULT_RETENTION, batchSize: 3 };

describe.each(engines)("$name", ({ skip, open }) => {
  let database: Database;
  let drop: () => Promise<void>;
  let serial = 0;

  beforeAll(async () => {
    if (skip) return;
    ({ database, drop } = await open());
  });
  afterAll(async () => {
    await database?.destroy();
    await drop?.();
  });

  async function freshSchema(): Promise<Kysely<any>> {
    serial += 1;
    const schema = `prune_${serial}`;
    await migrateToLatest(database, schema, {
      "2026_01_01_0000_init": { up: (db) => createMessagingTables(db) },
    });
    return database.forSchema<any>(schema);
  }

  /** `count` rows of every kind, all stamped `at`; outbox rows sent at `at` unless `unsent`. */
  async function seed(
    db: Kysely<any>,
    tag: string,
    count: number,
    at: Date,
    opts: { unsent?: boolean } = {},
  ) {
    for (let i = 0; i < count; i += 1) {
      const id = `evt_${tag}_${i}`;
      await db.insertInto("inbox").values({ consumer: "c", event_id: id, processed_at: at }).execute();
      await db
        .insertInto("outbox")
        .values({
          id,
          subject: "petri.t.x",
          type: "t.x",
          aggregate_id: "a",
          aggregate_version: i + 1,
          envelope: new Uint8Array([1]),
          created_at: at,
          sent_at: opts.unsent ? null : at,
        })
        .execute();
      await db
        .insertInto("dead_letters")
        .values({
          consumer: "c",
          event_id: id,
          subject: "petri.t.x",
          type: "t.x",
          envelope: new Uint8Array([1]),
          reason: "boom",
          attempts: 5,
          failed_at: at,
        })
        .execute();
      await db
        .insertInto("idempotency_keys")
        .values({
          principal: "usr_1",
          key: `${tag}_${i}`,
          request_hash: "h",
          status: opts.unsent ? "in_progress" : "completed",
          created_at: at,
          completed_at: opts.unsent ? null : at,
        })
        .execute();
    }
  }

  async function counts(db: Kysely<any>) {
    const out: Record<string, number> = {};
    for (const table of ["inbox", "outbox", "dead_letters", "idempotency_keys"]) {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      out[table] = Number(row.n);
    }
    return out;
  }

  /** The targets, each recording how many rows every one of its DELETEs removed. */
  function recorded(db: Kysely<any>) {
    const batches: Record<string, number[]> = {};
    const targets: PruneTarget[] = messagingPruneTargets(db, retention).map((target) => ({
      ...target,
      async deleteBatch(cutoff, limit) {
        const n = await target.deleteBatch(cutoff, limit);
        (batches[target.name] ??= []).push(n);
        return n;
      },
    }));
    return { targets, batches };
  }

  it.skipIf(skip)(
    "deletes rows past retention in bounded batches; keeps young rows, unsent outbox rows and claims in progress",
    async () => {
      const db = await freshSchema();
      const clock = new FakeClock("2026-06-01T00:00:00.000Z");
      const now = clock.now().getTime();
      // Older than every retention (the longest default is 30 days).
      await seed(db, "old", 7, new Date(now - 31 * 24 * HOUR));
      // Younger than every retention (the shortest default is 24 hours).
      await seed(db, "young", 2, new Date(now - HOUR));
      // Old, but the relay has not sent them / the request is still running.
      await seed(db, "pending", 2, new Date(now - 31 * 24 * HOUR), { unsent: true });

      const pruner = new Pruner({ name: "t", clock, logger, intervalMs: retention.intervalMs, batchSize: 3 });
      const { targets, batches } = recorded(db);
      for (const target of targets) pruner.register(target);

      const deleted = await pruner.pruneAll();

      // Inbox and dead letters: all old rows, pending-tagged ones included (they are old too).
      expect(deleted).toEqual({ inbox: 9, outbox: 7, dead_letters: 9, idempotency_keys: 7 });
      expect(await counts(db)).toEqual({ inbox: 2, outbox: 4, dead_letters: 2, idempotency_keys: 4 });
      const unsent = await db.selectFrom("outbox").select("id").where("sent_at", "is", null).execute();
      expect(unsent).toHaveLength(2);
      for (const sizes of Object.values(batches)) expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
      expect(batches.inbox).toEqual([3, 3, 3, 0]);
    },
  );

  it.skipIf(skip)("keeps each kind exactly its retention: a row one minute younger stays", async () => {
    const db = await freshSchema();
    const clock = new FakeClock("2026-06-01T00:00:00.000Z");
    const now = clock.now().getTime();
    const pruner = new Pruner({ name: "t", clock, logger, intervalMs: retention.intervalMs, batchSize: 3 });
    for (const target of messagingPruneTargets(db, retention)) pruner.register(target);
    // Just inside the inbox's 14 days (and so inside dead letters' 30), but past the outbox's
    // 3 days and idempotency's 24 hours.
    await seed(db, "edge", 1, new Date(now - retention.inboxMs + 60_000));
    expect(await pruner.pruneAll()).toEqual({ inbox: 0, outbox: 1, dead_letters: 0, idempotency_keys: 1 });
    await clock.advance(2 * 60_000);
    expect((await pruner.pruneAll()).inbox).toBe(1);
  });

  it.skipIf(skip)("the loop prunes on the service clock at its interval", async () => {
    const db = await freshSchema();
    const clock = new FakeClock("2026-06-01T00:00:00.000Z");
    const halfHour = 30 * 60_000;
    const short: RetentionSettings = {
      inboxMs: halfHour,
      sentOutboxMs: halfHour,
      deadLettersMs: halfHour,
      idempotencyMs: halfHour,
      webhookAttemptsMs: halfHour,
      intervalMs: 2 * halfHour,
      batchSize: 3,
    };
    const pruner = new Pruner({ name: "t", clock, logger, intervalMs: short.intervalMs, batchSize: 3 });
    for (const target of messagingPruneTargets(db, short)) pruner.register(target);
    // Young now; past retention when the next pass falls due, an interval later.
    await seed(db, "later", 5, clock.now());
    pruner.start();
    try {
      // The first pass ran at start and found nothing; the next is due on the fake clock.
      await eventually(() => clock.pendingSleeps > 0, "the pruner waiting for its next pass");
      expect(await counts(db)).toEqual({ inbox: 5, outbox: 5, dead_letters: 5, idempotency_keys: 5 });
      await clock.advance(short.intervalMs);
      await eventually(
        async () => Object.values(await counts(db)).every((n) => n === 0),
        async () => `every row pruned, still ${JSON.stringify(await counts(db))}`,
      );
    } finally {
      await pruner.stop();
    }
  });
});
