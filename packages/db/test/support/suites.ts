/**
 * Behaviour suites registered against a Database getter, so the PGlite unit tests
 * (src/*.test.ts) and the PostgreSQL integration tests (test/*.int.test.ts) run the very
 * same checks. Each suite uses its own schemas (prefix) so suites can share a database.
 */
import { type Kysely, type Migration, sql } from "kysely";
import { expect, it } from "vitest";
import type { Database } from "../../src/database.js";
import { beginIdempotent, completeIdempotent } from "../../src/idempotency.js";
import {
  createMessagingTables,
  dropMessagingTables,
  type MessagingTables,
} from "../../src/messaging-tables.js";
import { MigrationError, migrateToLatest, migrationStatus } from "../../src/migrate.js";
import { UnsafeIntegerError } from "../../src/type-parsers.js";

export type GetDb = () => Database;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Rollback extends Error {}

// ---------------------------------------------------------------------------------------
// Types

/** One row exercising every aligned type; literals only, so both engines must agree. */
export async function probeTypes(db: Database): Promise<Record<string, unknown>> {
  const { rows } = await sql<Record<string, unknown>>`
    select
      9007199254740991::int8 as int8_max,
      (-9007199254740991)::int8 as int8_min,
      (select count(*) from (values (1), (2), (3)) as v(x)) as count,
      (select sum(x) from (values (1), (2)) as v(x)) as sum_int4,
      42::int4 as int4,
      7::int2 as int2,
      1.5::float8 as float8,
      12345678901234567890.123456789::numeric as numeric,
      '2024-05-06T07:08:09.123+02:00'::timestamptz as timestamptz,
      '2024-05-06'::date as date,
      '01:02:03'::interval as interval,
      '{"a": [1, "x", null, true], "b": {"c": 1.5}}'::jsonb as jsonb,
      '[1, 2]'::json as json,
      '\\x00ff10'::bytea as bytea,
      array[1, 9007199254740991]::int8[] as int8_array,
      array['1.10', null]::numeric[] as numeric_array,
      array['2024-01-02'::date] as date_array,
      true as bool,
      'text'::text as text,
      null::text as null_text,
      '6b1f1a4e-3c1a-4f0e-9a55-6f1f1f1f1f1f'::uuid as uuid
  `.execute(db.root);
  const row = rows[0];
  if (!row) throw new Error("no row");
  return normalise(row);
}

/** Buffer (pg) and Uint8Array (PGlite) compare equal once both are plain Uint8Arrays. */
function normalise(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = value instanceof Uint8Array ? new Uint8Array(value) : value;
  }
  return out;
}

export const EXPECTED_TYPES: Record<string, unknown> = {
  int8_max: 9007199254740991,
  int8_min: -9007199254740991,
  count: 3,
  sum_int4: 3,
  int4: 42,
  int2: 7,
  float8: 1.5,
  numeric: "12345678901234567890.123456789",
  timestamptz: new Date("2024-05-06T05:08:09.123Z"),
  date: "2024-05-06",
  interval: "01:02:03",
  jsonb: { a: [1, "x", null, true], b: { c: 1.5 } },
  json: [1, 2],
  bytea: new Uint8Array([0x00, 0xff, 0x10]),
  int8_array: [1, 9007199254740991],
  numeric_array: ["1.10", null],
  date_array: ["2024-01-02"],
  bool: true,
  text: "text",
  null_text: null,
  uuid: "6b1f1a4e-3c1a-4f0e-9a55-6f1f1f1f1f1f",
};

export function typeAlignmentSuite(getDb: GetDb, prefix: string): void {
  it("returns aligned JavaScript types", async () => {
    const row = await probeTypes(getDb());
    expect(row).toEqual(EXPECTED_TYPES);
    expect(typeof row.count).toBe("number");
    expect(row.timestamptz).toBeInstanceOf(Date);
  });

  it("refuses int8 values beyond Number.MAX_SAFE_INTEGER, in both directions and in arrays", async () => {
    const db = getDb();
    for (const query of [
      sql`select 9007199254740992::int8 as v`,
      sql`select (-9007199254740992)::int8 as v`,
      sql`select array[1, 9223372036854775807]::int8[] as v`,
    ]) {
      await expect(query.execute(db.root)).rejects.toBeInstanceOf(UnsafeIntegerError);
    }
    // The engine is still usable afterwards (the connection was released, not poisoned).
    await db.ping();
    const { rows } = await sql<{ v: string }>`select 9223372036854775807::int8::text as v`.execute(db.root);
    expect(rows[0]?.v).toBe("9223372036854775807");
  });

  it("round-trips parameters: number to bigint, Date, Buffer and Uint8Array to bytea, JSON text to jsonb", async () => {
    const db = getDb();
    const schema = `${prefix}_params`;
    await db.root.schema.createSchema(schema).ifNotExists().execute();
    const k = db.forSchema<any>(schema);
    await k.schema
      .createTable("vals")
      .ifNotExists()
      .addColumn("id", "bigint", (col) => col.generatedAlwaysAsIdentity().primaryKey())
      .addColumn("big", "bigint")
      .addColumn("at", "timestamptz")
      .addColumn("bin", "bytea")
      .addColumn("doc", "jsonb")
      .addColumn("amount", "numeric")
      .execute();
    const at = new Date("2025-01-02T03:04:05.678Z");
    await k
      .insertInto("vals")
      .values([
        {
          big: 9007199254740991,
          at,
          bin: Buffer.from([1, 2]),
          doc: JSON.stringify([1, { a: [2] }]),
          amount: "10.05",
        },
        { big: -1, at, bin: new Uint8Array([3, 4]), doc: JSON.stringify({ a: 1 }), amount: "0" },
      ])
      .execute();
    const rows = await k
      .selectFrom("vals")
      .select(["id", "big", "at", "bin", "doc", "amount"])
      .orderBy("id")
      .execute();
    expect(rows.map((r) => ({ ...r, bin: new Uint8Array(r.bin) }))).toEqual([
      {
        id: 1,
        big: 9007199254740991,
        at,
        bin: new Uint8Array([1, 2]),
        doc: [1, { a: [2] }],
        amount: "10.05",
      },
      { id: 2, big: -1, at, bin: new Uint8Array([3, 4]), doc: { a: 1 }, amount: "0" },
    ]);
    const counted = await k
      .selectFrom("vals")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(counted.n).toBe(2);
  });
}

// ---------------------------------------------------------------------------------------
// Schemas share one connection (PGlite) / one pool (pg) without interfering

async function createItems(db: Database, schema: string): Promise<Kysely<any>> {
  await db.root.schema.createSchema(schema).ifNotExists().execute();
  const k = db.forSchema<any>(schema);
  await k.schema
    .createTable("items")
    .ifNotExists()
    .addColumn("id", "integer", (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn("label", "text", (col) => col.notNull().unique())
    .execute();
  await k.deleteFrom("items").execute();
  return k;
}

const labels = async (k: Kysely<any>) =>
  (await k.selectFrom("items").select("label").orderBy("label").execute()).map((row) => row.label as string);

export function schemaIsolationSuite(getDb: GetDb, prefix: string): void {
  it("forSchema qualifies tables: the same table name in two schemas holds different rows", async () => {
    const db = getDb();
    const a = await createItems(db, `${prefix}_iso_a`);
    const b = await createItems(db, `${prefix}_iso_b`);
    await a.insertInto("items").values({ label: "only-in-a" }).execute();
    expect(await labels(a)).toEqual(["only-in-a"]);
    expect(await labels(b)).toEqual([]);
    expect(db.forSchema(`${prefix}_iso_a`)).toBe(db.forSchema(`${prefix}_iso_a`));
    expect(() => db.forSchema("Robert'); drop table x;--")).toThrow(/invalid schema name/);
  });

  it("a rolled-back transaction in schema A does not take a concurrent autocommit write in schema B with it", async () => {
    const db = getDb();
    const a = await createItems(db, `${prefix}_ser_a`);
    const b = await createItems(db, `${prefix}_ser_b`);
    let writeB: Promise<unknown> | undefined;
    let bDoneWhileAOpen = false;
    await expect(
      a.transaction().execute(async (trx) => {
        await trx.insertInto("items").values({ label: "a1" }).execute();
        // Not awaited on PGlite: it must queue behind this transaction (awaiting it here would
        // deadlock, see G5). On pg it runs on another connection, so await it.
        writeB = b.insertInto("items").values({ label: "b1" }).execute();
        if (db.driver === "pg") await writeB;
        else await sleep(50);
        await trx.insertInto("items").values({ label: "a2" }).execute();
        bDoneWhileAOpen = await Promise.race([writeB.then(() => true), sleep(0).then(() => false)]);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    await writeB;
    expect(await labels(a)).toEqual([]);
    expect(await labels(b)).toEqual(["b1"]);
    // PGlite has one connection: B's statement ran only after A's transaction ended.
    expect(bDoneWhileAOpen).toBe(db.driver === "pg");
  });

  it("interleaved transactions (committed and rolled back) and autocommit writes across schemas all land correctly", async () => {
    const db = getDb();
    const a = await createItems(db, `${prefix}_mix_a`);
    const b = await createItems(db, `${prefix}_mix_b`);
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      work.push(
        a
          .transaction()
          .execute(async (trx) => {
            for (let j = 0; j < 3; j++) {
              await trx
                .insertInto("items")
                .values({ label: `t${i}-${j}` })
                .execute();
              await sleep(1);
            }
            if (i % 2 === 1) throw new Rollback();
          })
          .catch((error) => {
            if (!(error instanceof Rollback)) throw error;
          }),
      );
      // Staggered so that, were statements not serialised, they would land inside A's open
      // transactions (some of which roll back) rather than all before or after them.
      for (let j = 0; j < 3; j++) {
        work.push(
          sleep(i * 3 + j).then(() =>
            b
              .insertInto("items")
              .values({ label: `w${i}-${j}` })
              .execute(),
          ),
        );
      }
    }
    // A failing statement (unique violation) inside a transaction aborts that transaction only.
    work.push(
      a
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto("items").values({ label: "dup" }).execute();
          await trx.insertInto("items").values({ label: "dup" }).execute();
        })
        .then(
          () => expect.fail("duplicate insert should fail"),
          (error) => expect((error as { code?: string }).code).toBe("23505"),
        ),
    );
    await Promise.all(work);
    const expectedA = [0, 2, 4, 6, 8].flatMap((i) => [0, 1, 2].map((j) => `t${i}-${j}`)).sort();
    const expectedB = Array.from({ length: 10 }, (_, i) => [0, 1, 2].map((j) => `w${i}-${j}`))
      .flat()
      .sort();
    expect(await labels(a)).toEqual(expectedA);
    expect(await labels(b)).toEqual(expectedB);
  });

  it("supports savepoints and read-only transactions", async () => {
    const db = getDb();
    const a = await createItems(db, `${prefix}_sp`);
    const trx = await a.startTransaction().execute();
    try {
      await trx.insertInto("items").values({ label: "kept" }).execute();
      const sp = await trx.savepoint("before_dup").execute();
      await expect(sp.insertInto("items").values({ label: "kept" }).execute()).rejects.toMatchObject({
        code: "23505",
      });
      const back = await sp.rollbackToSavepoint("before_dup").execute();
      await back.insertInto("items").values({ label: "after" }).execute();
      await back.commit().execute();
    } catch (error) {
      await trx.rollback().execute();
      throw error;
    }
    expect(await labels(a)).toEqual(["after", "kept"]);
    await expect(
      a
        .transaction()
        .setAccessMode("read only")
        .execute((trx) => trx.insertInto("items").values({ label: "ro" }).execute()),
    ).rejects.toMatchObject({ code: "25006" });
  });
}

// ---------------------------------------------------------------------------------------
// Migrations

const widgets: Record<string, Migration> = {
  "2026_01_01_0900_create_widgets": {
    async up(db) {
      await createMessagingTables(db);
      await db.schema
        .createTable("widgets")
        .addColumn("id", "text", (col) => col.primaryKey())
        .execute();
    },
    async down(db) {
      await db.schema.dropTable("widgets").execute();
      await dropMessagingTables(db);
    },
  },
  "2026_01_02_1000_add_widget_colour": {
    async up(db) {
      await db.schema.alterTable("widgets").addColumn("colour", "text").execute();
    },
  },
};

async function tablesIn(db: Database, schema: string): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = ${schema} order by table_name
  `.execute(db.root);
  return rows.map((row) => row.table_name);
}

async function appliedIn(db: Database, schema: string): Promise<string[]> {
  const rows = await db
    .forSchema<any>(schema)
    .selectFrom("kysely_migration")
    .select("name")
    .orderBy("name")
    .execute();
  return rows.map((row) => row.name as string);
}

export function migrationSuite(getDb: GetDb, prefix: string): void {
  it("migrates each schema separately: tables and the migration table land in that schema", async () => {
    const db = getDb();
    const [s1, s2] = [`${prefix}_svc_one`, `${prefix}_svc_two`];
    expect(await migrationStatus(db, s1, widgets)).toEqual({
      atHead: false,
      pending: ["2026_01_01_0900_create_widgets", "2026_01_02_1000_add_widget_colour"],
    });
    await migrateToLatest(db, s1, widgets);
    await migrateToLatest(db, s2, {
      "2026_01_01_0900_create_widgets": widgets["2026_01_01_0900_create_widgets"]!,
    });
    const all = [
      "dead_letters",
      "idempotency_keys",
      "inbox",
      "kysely_migration",
      "kysely_migration_lock",
      "outbox",
      "widgets",
    ];
    expect(await tablesIn(db, s1)).toEqual(all);
    expect(await tablesIn(db, s2)).toEqual(all);
    expect(await tablesIn(db, "public")).toEqual([]);
    expect(await appliedIn(db, s1)).toEqual(Object.keys(widgets));
    expect(await appliedIn(db, s2)).toEqual(["2026_01_01_0900_create_widgets"]);
    const { rows } = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_schema = ${s1} and table_name = 'widgets' order by ordinal_position
    `.execute(db.root);
    expect(rows.map((row) => row.column_name)).toEqual(["id", "colour"]);
    expect(await migrationStatus(db, s1, widgets)).toEqual({ atHead: true, pending: [] });
    expect(await migrationStatus(db, s2, widgets)).toEqual({
      atHead: false,
      pending: ["2026_01_02_1000_add_widget_colour"],
    });

    // Re-running is a no-op; a later migration runs alone.
    await migrateToLatest(db, s1, widgets);
    await migrateToLatest(db, s2, widgets);
    expect(await appliedIn(db, s2)).toEqual(Object.keys(widgets));
  });

  it("reports a missing schema as all pending", async () => {
    expect(await migrationStatus(getDb(), `${prefix}_never_created`, widgets)).toEqual({
      atHead: false,
      pending: Object.keys(widgets),
    });
  });

  it("throws MigrationError naming the failed migration and keeps nothing of the run", async () => {
    const db = getDb();
    const schema = `${prefix}_broken`;
    const migrations: Record<string, Migration> = {
      "2026_02_01_0000_create_a": {
        up: (k) => k.schema.createTable("a").addColumn("id", "integer").execute(),
      },
      "2026_02_02_0000_break": {
        up: (k) => sql`select * from no_such_table`.execute(k).then(() => undefined),
      },
      "2026_02_03_0000_create_c": {
        up: (k) => k.schema.createTable("c").addColumn("id", "integer").execute(),
      },
    };
    const error = await migrateToLatest(db, schema, migrations).then(
      () => expect.fail("migration should fail"),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(MigrationError);
    const failure = error as MigrationError;
    expect(failure.failed).toEqual(["2026_02_02_0000_break"]);
    expect(failure.notExecuted).toEqual(["2026_02_03_0000_create_c"]);
    expect(failure.message).toContain("2026_02_02_0000_break");
    expect(failure.message).toContain(`"${schema}"`);
    expect(failure.message).toMatch(/no_such_table/);
    // All pending migrations run in one transaction: the successful first one is gone too.
    expect(await tablesIn(db, schema)).toEqual(["kysely_migration", "kysely_migration_lock"]);
    expect((await migrationStatus(db, schema, migrations)).pending).toEqual(Object.keys(migrations));
  });

  it("rejects migration and schema names that break the conventions", async () => {
    const db = getDb();
    const noop: Migration = { up: async () => {} };
    await expect(migrateToLatest(db, `${prefix}_names`, { create_widgets: noop })).rejects.toThrow(
      /YYYY_MM_DD_HHMM_<what>/,
    );
    await expect(
      migrateToLatest(db, `${prefix}_names`, { "2026_13_01_0000_bad_month": noop }),
    ).rejects.toThrow(/invalid migration name/);
    await expect(migrateToLatest(db, "Bad-Schema", { "2026_01_01_0000_ok": noop })).rejects.toThrow(
      /invalid schema name/,
    );
    expect(await tablesIn(db, `${prefix}_names`)).toEqual([]);
  });

  it("is safe when called concurrently for the same schema", async () => {
    const db = getDb();
    const schema = `${prefix}_concurrent`;
    const migrations = slowMigrations();
    await Promise.all([migrateToLatest(db, schema, migrations), migrateToLatest(db, schema, migrations)]);
    await expectSlowMigrationsRanOnce(db, schema);
  });
}

/** A migration that takes a moment and would fail if it ran twice. */
export function slowMigrations(): Record<string, Migration> {
  return {
    "2026_03_01_0000_create_runs": {
      async up(db) {
        await sql`select pg_sleep(0.2)`.execute(db);
        await db.schema.createTable("runs").addColumn("n", "integer").execute();
        await db.insertInto("runs").values({ n: 1 }).execute();
      },
    },
    "2026_03_01_0001_second": {
      async up(db) {
        await db.insertInto("runs").values({ n: 2 }).execute();
      },
    },
  };
}

export async function expectSlowMigrationsRanOnce(db: Database, schema: string): Promise<void> {
  const rows = await db.forSchema<any>(schema).selectFrom("runs").select("n").orderBy("n").execute();
  expect(rows.map((row) => row.n)).toEqual([1, 2]);
  expect(await appliedIn(db, schema)).toEqual(["2026_03_01_0000_create_runs", "2026_03_01_0001_second"]);
}

// ---------------------------------------------------------------------------------------
// Messaging tables

/** [column, data_type, is_nullable, default (null when none), identity generation] */
type ColumnSpec = [string, string, "YES" | "NO", string | null, "ALWAYS" | null];

const MESSAGING_COLUMNS: Record<string, ColumnSpec[]> = {
  outbox: [
    ["seq", "bigint", "NO", null, "ALWAYS"],
    ["id", "text", "NO", null, null],
    ["subject", "text", "NO", null, null],
    ["type", "text", "NO", null, null],
    ["aggregate_id", "text", "NO", null, null],
    ["aggregate_version", "bigint", "NO", null, null],
    ["envelope", "bytea", "NO", null, null],
    ["traceparent", "text", "YES", null, null],
    ["created_at", "timestamp with time zone", "NO", "now()", null],
    ["sent_at", "timestamp with time zone", "YES", null, null],
    ["lease_until", "timestamp with time zone", "YES", null, null],
    ["attempts", "integer", "NO", "0", null],
    ["last_error", "text", "YES", null, null],
  ],
  inbox: [
    ["consumer", "text", "NO", null, null],
    ["event_id", "text", "NO", null, null],
    ["processed_at", "timestamp with time zone", "NO", "now()", null],
  ],
  dead_letters: [
    ["id", "bigint", "NO", null, "ALWAYS"],
    ["consumer", "text", "NO", null, null],
    ["event_id", "text", "NO", null, null],
    ["subject", "text", "NO", null, null],
    ["type", "text", "NO", null, null],
    ["envelope", "bytea", "NO", null, null],
    ["reason", "text", "NO", null, null],
    ["attempts", "integer", "NO", null, null],
    ["failed_at", "timestamp with time zone", "NO", "now()", null],
  ],
  idempotency_keys: [
    ["principal", "text", "NO", null, null],
    ["key", "text", "NO", null, null],
    ["request_hash", "text", "NO", null, null],
    ["status", "text", "NO", null, null],
    ["response_status", "integer", "YES", null, null],
    ["response_body", "jsonb", "YES", null, null],
    ["created_at", "timestamp with time zone", "NO", "now()", null],
    ["completed_at", "timestamp with time zone", "YES", null, null],
  ],
};

const MESSAGING_INDEXES = [
  "dead_letters_consumer_event_id_key: CREATE UNIQUE INDEX dead_letters_consumer_event_id_key ON S.dead_letters USING btree (consumer, event_id)",
  "dead_letters_pkey: CREATE UNIQUE INDEX dead_letters_pkey ON S.dead_letters USING btree (id)",
  "idempotency_keys_pkey: CREATE UNIQUE INDEX idempotency_keys_pkey ON S.idempotency_keys USING btree (principal, key)",
  "inbox_pkey: CREATE UNIQUE INDEX inbox_pkey ON S.inbox USING btree (consumer, event_id)",
  "outbox_id_key: CREATE UNIQUE INDEX outbox_id_key ON S.outbox USING btree (id)",
  "outbox_pkey: CREATE UNIQUE INDEX outbox_pkey ON S.outbox USING btree (seq)",
  "outbox_unsent_idx: CREATE INDEX outbox_unsent_idx ON S.outbox USING btree (seq) WHERE (sent_at IS NULL)",
];

async function messagingSchema(db: Database, schema: string): Promise<Kysely<MessagingTables>> {
  await db.root.schema.createSchema(schema).ifNotExists().execute();
  const k = db.forSchema<MessagingTables>(schema);
  if (!(await tablesIn(db, schema)).includes("outbox")) await createMessagingTables(k);
  return k;
}

export function messagingTablesSuite(getDb: GetDb, prefix: string): void {
  it("creates the messaging tables with the agreed columns, keys and indexes", async () => {
    const db = getDb();
    const schema = `${prefix}_msg_shape`;
    await messagingSchema(db, schema);
    const { rows } = await sql<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: "YES" | "NO";
      column_default: string | null;
      identity_generation: "ALWAYS" | null;
    }>`
      select table_name, column_name, data_type, is_nullable, column_default, identity_generation
      from information_schema.columns where table_schema = ${schema}
      order by table_name, ordinal_position
    `.execute(db.root);
    const actual: Record<string, ColumnSpec[]> = {};
    for (const row of rows) {
      (actual[row.table_name] ??= []).push([
        row.column_name,
        row.data_type,
        row.is_nullable,
        row.column_default,
        row.identity_generation,
      ]);
    }
    expect(actual).toEqual(MESSAGING_COLUMNS);

    const indexes = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes where schemaname = ${schema} order by indexname
    `.execute(db.root);
    expect(
      indexes.rows.map((row) => `${row.indexname}: ${row.indexdef.replaceAll(`${schema}.`, "S.")}`),
    ).toEqual(MESSAGING_INDEXES);

    const k = db.forSchema<any>(schema);
    await expect(
      k
        .insertInto("idempotency_keys")
        .values({ principal: "p", key: "k", request_hash: "h", status: "done" })
        .execute(),
    ).rejects.toMatchObject({ code: "23514" });
  });

  it("fills outbox defaults and types its rows", async () => {
    const db = getDb();
    const k = await messagingSchema(db, `${prefix}_msg_outbox`);
    await k
      .insertInto("outbox")
      .values([
        {
          id: "evt_1",
          subject: "petri.x.created",
          type: "petri.x.v1.Created",
          aggregate_id: "x_1",
          aggregate_version: 1,
          envelope: new Uint8Array([1]),
        },
        {
          id: "evt_2",
          subject: "petri.x.created",
          type: "petri.x.v1.Created",
          aggregate_id: "x_1",
          aggregate_version: 2,
          envelope: new Uint8Array([2]),
          traceparent: "00-abc-def-01",
        },
      ])
      .execute();
    const rows = await k
      .selectFrom("outbox")
      .selectAll()
      .where("sent_at", "is", null)
      .orderBy("seq")
      .execute();
    expect(
      rows.map((row) => [row.seq, row.id, row.attempts, row.traceparent, row.created_at instanceof Date]),
    ).toEqual([
      [1, "evt_1", 0, null, true],
      [2, "evt_2", 0, "00-abc-def-01", true],
    ]);
    await expect(
      k
        .insertInto("outbox")
        .values({
          id: "evt_1",
          subject: "s",
          type: "t",
          aggregate_id: "a",
          aggregate_version: 3,
          envelope: new Uint8Array(),
        })
        .execute(),
    ).rejects.toMatchObject({ code: "23505", constraint: "outbox_id_key" });
  });

  it("dropMessagingTables removes them", async () => {
    const db = getDb();
    const schema = `${prefix}_msg_drop`;
    const k = await messagingSchema(db, schema);
    await dropMessagingTables(k);
    expect(await tablesIn(db, schema)).toEqual([]);
  });
}

// ---------------------------------------------------------------------------------------
// Idempotency keys

export function idempotencySuite(getDb: GetDb, prefix: string): void {
  const request = { principal: "usr_1", requestHash: "sha256:aaa" };

  it("claims a new key, then replays the completed response for the same request", async () => {
    const k = await messagingSchema(getDb(), `${prefix}_idem`);
    const key = "replay-1";
    const body = { id: "exp_1", tags: ["a", "b"], amount: 12.5 };
    await k.transaction().execute(async (trx) => {
      expect(await beginIdempotent(trx, { ...request, key })).toEqual({ kind: "new" });
      await completeIdempotent(trx, { principal: request.principal, key, status: 201, body });
    });
    expect(await beginIdempotent(k, { ...request, key })).toEqual({ kind: "replay", status: 201, body });
    // An array body (a JSON array, not a PostgreSQL array) and a null body round-trip too.
    await k.transaction().execute(async (trx) => {
      expect(await beginIdempotent(trx, { ...request, key: "replay-2" })).toEqual({ kind: "new" });
      await completeIdempotent(trx, {
        principal: request.principal,
        key: "replay-2",
        status: 200,
        body: [1, "x"],
      });
      expect(await beginIdempotent(trx, { ...request, key: "replay-3" })).toEqual({ kind: "new" });
      await completeIdempotent(trx, {
        principal: request.principal,
        key: "replay-3",
        status: 204,
        body: null,
      });
    });
    expect(await beginIdempotent(k, { ...request, key: "replay-2" })).toEqual({
      kind: "replay",
      status: 200,
      body: [1, "x"],
    });
    expect(await beginIdempotent(k, { ...request, key: "replay-3" })).toEqual({
      kind: "replay",
      status: 204,
      body: null,
    });
    const row = await k
      .selectFrom("idempotency_keys")
      .selectAll()
      .where("key", "=", key)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: "completed",
      response_status: 201,
      request_hash: request.requestHash,
    });
    expect(row.completed_at).toBeInstanceOf(Date);
  });

  it("reports a mismatch when the key is reused for a different request", async () => {
    const k = await messagingSchema(getDb(), `${prefix}_idem`);
    await k.transaction().execute(async (trx) => {
      await beginIdempotent(trx, { ...request, key: "mismatch" });
      await completeIdempotent(trx, { principal: request.principal, key: "mismatch", status: 200, body: {} });
    });
    expect(await beginIdempotent(k, { ...request, key: "mismatch", requestHash: "sha256:bbb" })).toEqual({
      kind: "mismatch",
    });
  });

  it("reports in_progress for a committed claim that is not completed, and scopes keys per principal", async () => {
    const k = await messagingSchema(getDb(), `${prefix}_idem`);
    expect(await beginIdempotent(k, { ...request, key: "pending" })).toEqual({ kind: "new" });
    expect(await beginIdempotent(k, { ...request, key: "pending" })).toEqual({ kind: "in_progress" });
    expect(await beginIdempotent(k, { ...request, key: "pending", principal: "usr_2" })).toEqual({
      kind: "new",
    });
  });

  it("releases the claim when the transaction rolls back", async () => {
    const k = await messagingSchema(getDb(), `${prefix}_idem`);
    await expect(
      k.transaction().execute(async (trx) => {
        expect(await beginIdempotent(trx, { ...request, key: "rolled-back" })).toEqual({ kind: "new" });
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(await beginIdempotent(k, { ...request, key: "rolled-back" })).toEqual({ kind: "new" });
  });

  it("refuses to complete a key that is not in progress", async () => {
    const k = await messagingSchema(getDb(), `${prefix}_idem`);
    await expect(
      completeIdempotent(k, { principal: "usr_1", key: "never-claimed", status: 200, body: {} }),
    ).rejects.toThrow(/not in progress/);
    await beginIdempotent(k, { ...request, key: "twice" });
    await completeIdempotent(k, { principal: "usr_1", key: "twice", status: 200, body: {} });
    await expect(
      completeIdempotent(k, { principal: "usr_1", key: "twice", status: 500, body: {} }),
    ).rejects.toThrow(/not in progress/);
    expect(await beginIdempotent(k, { ...request, key: "twice" })).toEqual({
      kind: "replay",
      status: 200,
      body: {},
    });
  });

  it("a concurrent duplicate waits for the first request's transaction and then replays it", async () => {
    const k = await messagingSchema(getDb(), `${prefix}_idem`);
    const key = "concurrent";
    let second: Promise<unknown> | undefined;
    let settled = false;
    let settledBeforeCommit = true;
    await k.transaction().execute(async (trx) => {
      expect(await beginIdempotent(trx, { ...request, key })).toEqual({ kind: "new" });
      // pg: blocks on the conflicting uncommitted insert; PGlite: queued behind this transaction.
      second = k.transaction().execute((other) => beginIdempotent(other, { ...request, key }));
      second.then(
        () => (settled = true),
        () => (settled = true),
      );
      await sleep(100);
      await completeIdempotent(trx, { principal: request.principal, key, status: 201, body: { ok: true } });
      settledBeforeCommit = settled;
    });
    expect(settledBeforeCommit).toBe(false);
    expect(await second).toEqual({ kind: "replay", status: 201, body: { ok: true } });
  });
}
