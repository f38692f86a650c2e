import { Client } from "pg";
import { describe, expect, it } from "vitest";
import {
  createTestDatabase,
  postgresAvailable,
  requireInfra,
  testDatabaseAdminUrl,
} from "../src/postgres.js";

const pgUp = requireInfra("PostgreSQL", await postgresAvailable());

async function databaseExists(name: string): Promise<boolean> {
  const admin = new Client({ connectionString: testDatabaseAdminUrl() });
  await admin.connect();
  try {
    const { rows } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    return rows.length === 1;
  } finally {
    await admin.end();
  }
}

describe.skipIf(!pgUp)("createTestDatabase (real PostgreSQL)", () => {
  it("creates a fresh, empty, uniquely named database and drops it even while connections are open", async () => {
    const [one, two] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    const name = new URL(one.url).pathname.slice(1);
    expect(name).toMatch(/^petri_test_/);
    expect(one.url).not.toBe(two.url);

    const client = new Client({ connectionString: one.url });
    client.on("error", () => {}); // it gets terminated by drop()
    await client.connect();
    const { rows } = await client.query(
      "select current_database() as db, count(*)::int as n from pg_tables where schemaname = 'public'",
    );
    expect(rows[0]).toEqual({ db: name, n: 0 });

    await one.drop();
    await one.drop(); // idempotent
    expect(await databaseExists(name)).toBe(false);
    await client.end().catch(() => {});
    await two.drop();
  });

  it("reports availability", async () => {
    expect(await postgresAvailable()).toBe(true);
  });
});
