import { type TestDatabase, createTestDatabase, postgresAvailable, requireInfra } from "@petri/testkit";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../src/create-database.js";
import type { Database } from "../src/database.js";
import { migrateToLatest, migrationStatus } from "../src/migrate.js";
import {
  expectSlowMigrationsRanOnce,
  idempotencySuite,
  messagingTablesSuite,
  migrationSuite,
  schemaIsolationSuite,
  slowMigrations,
  typeAlignmentSuite,
} from "./support/suites.js";

const pgUp = requireInfra("PostgreSQL", await postgresAvailable());

describe.skipIf(!pgUp)("@petri/db on PostgreSQL", () => {
  let testDb: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await createDatabase({ driver: "pg", url: testDb.url, applicationName: "petri-db-int" });
  });
  afterAll(async () => {
    await db?.destroy();
    await testDb?.drop();
  });

  it("connects to PostgreSQL through a pool with the configured application_name", async () => {
    expect(db.driver).toBe("pg");
    await db.ping();
    const { rows } = await sql<{
      name: string;
    }>`select application_name as name from pg_stat_activity where pid = pg_backend_pid()`.execute(db.root);
    expect(rows[0]?.name).toBe("petri-db-int");
  });

  it("opens at most poolMax connections", async () => {
    const small = await createDatabase({
      driver: "pg",
      url: testDb.url,
      poolMax: 2,
      applicationName: "petri-db-poolmax",
    });
    try {
      await Promise.all(Array.from({ length: 6 }, () => sql`select pg_sleep(0.05)`.execute(small.root)));
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from pg_stat_activity where application_name = 'petri-db-poolmax'
      `.execute(db.root);
      expect(rows[0]?.n).toBe(2);
    } finally {
      await small.destroy();
    }
  });

  describe("types", () => typeAlignmentSuite(() => db, "int"));
  describe("schemas", () => schemaIsolationSuite(() => db, "int"));
  describe("migrations", () => migrationSuite(() => db, "int"));
  describe("messaging tables", () => messagingTablesSuite(() => db, "int"));
  describe("idempotency", () => idempotencySuite(() => db, "int"));

  it("migrates safely when several instances (separate pools, as separate processes would) race on one schema", async () => {
    const instances = await Promise.all(
      [1, 2, 3].map((poolMax) =>
        createDatabase({
          driver: "pg",
          url: testDb.url,
          poolMax,
          applicationName: `petri-migrator-${poolMax}`,
        }),
      ),
    );
    try {
      const migrations = slowMigrations();
      await Promise.all(instances.map((instance) => migrateToLatest(instance, "int_race", migrations)));
      await expectSlowMigrationsRanOnce(db, "int_race");
      for (const instance of instances) {
        expect(await migrationStatus(instance, "int_race", migrations)).toEqual({
          atHead: true,
          pending: [],
        });
      }
    } finally {
      await Promise.all(instances.map((instance) => instance.destroy()));
    }
  });

  it("destroy is idempotent and closes the pool", async () => {
    const other = await createDatabase({ driver: "pg", url: testDb.url });
    await other.ping();
    await Promise.all([other.destroy(), other.destroy()]);
    await expect(other.ping()).rejects.toThrow();
    // Never used: destroy still ends the pool.
    const unused = await createDatabase({ driver: "pg", url: testDb.url });
    await unused.destroy();
    await expect(unused.ping()).rejects.toThrow();
  });
});
