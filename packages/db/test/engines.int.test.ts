import { type TestDatabase, createTestDatabase, postgresAvailable, requireInfra } from "@petri/testkit";
import type { Migration } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../src/create-database.js";
import type { Database } from "../src/database.js";
import { beginIdempotent, completeIdempotent } from "../src/idempotency.js";
import { type MessagingTables, createMessagingTables } from "../src/messaging-tables.js";
import { migrateToLatest } from "../src/migrate.js";
import { EXPECTED_TYPES, probeTypes, schemaIsolationSuite } from "./support/suites.js";

const pgUp = requireInfra("PostgreSQL", await postgresAvailable());

const migrations: Record<string, Migration> = {
  "2026_04_01_0000_create_messaging_tables": { up: (db) => createMessagingTables(db) },
};

/** The same writes and reads, returning what a service would see. */
async function script(db: Database): Promise<unknown> {
  await migrateToLatest(db, "same_on_both", migrations);
  const k = db.forSchema<MessagingTables>("same_on_both");
  await k
    .insertInto("outbox")
    .values([
      {
        id: "evt_a",
        subject: "petri.x.a",
        type: "A",
        aggregate_id: "x_1",
        aggregate_version: 1,
        envelope: Buffer.from("hello"),
      },
      {
        id: "evt_b",
        subject: "petri.x.b",
        type: "B",
        aggregate_id: "x_1",
        aggregate_version: 2,
        envelope: new Uint8Array([0, 255]),
        traceparent: "00-t-s-01",
      },
    ])
    .execute();
  await k
    .updateTable("outbox")
    .set({ sent_at: new Date("2026-01-01T00:00:00Z"), attempts: (eb) => eb("attempts", "+", 1) })
    .where("id", "=", "evt_a")
    .execute();
  const outbox = await k
    .selectFrom("outbox")
    .select([
      "seq",
      "id",
      "aggregate_version",
      "envelope",
      "traceparent",
      "sent_at",
      "attempts",
      "last_error",
    ])
    .orderBy("seq")
    .execute();
  const unsent = await k
    .selectFrom("outbox")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("sent_at", "is", null)
    .executeTakeFirstOrThrow();
  const idem = await k.transaction().execute(async (trx) => {
    const first = await beginIdempotent(trx, { principal: "usr_1", key: "k1", requestHash: "h" });
    await completeIdempotent(trx, {
      principal: "usr_1",
      key: "k1",
      status: 201,
      body: { list: [1, 2], nested: { ok: true } },
    });
    return first;
  });
  const replay = await beginIdempotent(k, { principal: "usr_1", key: "k1", requestHash: "h" });
  return {
    outbox: outbox.map((row) => ({ ...row, envelope: Array.from(row.envelope) })),
    unsent,
    idem,
    replay,
  };
}

describe.skipIf(!pgUp)("same queries on PostgreSQL and PGlite", () => {
  let testDb: TestDatabase;
  let pg: Database;
  let lite: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    [pg, lite] = await Promise.all([
      createDatabase({ driver: "pg", url: testDb.url }),
      createDatabase({ driver: "pglite", dataDir: "memory://" }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([pg?.destroy(), lite?.destroy()]);
    await testDb?.drop();
  });

  it("run different server versions (PG 15 system, PG 18 in PGlite)", async () => {
    const version = async (db: Database) =>
      (await db.root.selectNoFrom((eb) => eb.fn<string>("version", []).as("v")).executeTakeFirstOrThrow()).v;
    expect(await version(pg)).toMatch(/^PostgreSQL 1[5-9]/);
    expect(await version(lite)).toMatch(/PGlite/);
  });

  it("return identical values for every aligned type", async () => {
    const [fromPg, fromLite] = await Promise.all([probeTypes(pg), probeTypes(lite)]);
    expect(fromPg).toEqual(fromLite);
    expect(fromPg).toEqual(EXPECTED_TYPES);
  });

  it("return identical results for the same migration, writes and reads", async () => {
    const [fromPg, fromLite] = await Promise.all([script(pg), script(lite)]);
    expect(fromPg).toEqual(fromLite);
    expect(fromPg).toMatchObject({
      outbox: [
        {
          seq: 1,
          id: "evt_a",
          aggregate_version: 1,
          envelope: [...Buffer.from("hello")],
          traceparent: null,
          attempts: 1,
        },
        {
          seq: 2,
          id: "evt_b",
          aggregate_version: 2,
          envelope: [0, 255],
          traceparent: "00-t-s-01",
          sent_at: null,
          attempts: 0,
        },
      ],
      unsent: { n: 1 },
      idem: { kind: "new" },
      replay: { kind: "replay", status: 201, body: { list: [1, 2], nested: { ok: true } } },
    });
  });

  describe("PGlite: schemas share one serialised connection", () =>
    schemaIsolationSuite(() => lite, "engines_lite"));
});
