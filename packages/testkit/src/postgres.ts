import { randomBytes } from "node:crypto";
import { Client } from "pg";

/** The maintenance database tests connect to; each test file gets a fresh database next to it. */
export function testDatabaseAdminUrl(): string {
  return process.env.PETRI_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

export interface TestDatabase {
  /** Connection URL of the fresh database. */
  url: string;
  /** Terminates the database's connections and drops it; idempotent. */
  drop(): Promise<void>;
}

async function withAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({
    connectionString: testDatabaseAdminUrl(),
    connectionTimeoutMillis: 5_000,
    application_name: "petri-testkit",
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/**
 * Creates a uniquely named, empty database on the test server (PETRI_TEST_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/postgres) and returns its URL.
 */
export async function createTestDatabase(prefix = "petri_test"): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`.toLowerCase();
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid test database name ${name}`);
  await withAdmin((client) => client.query(`create database ${quote(name)}`));
  const url = new URL(testDatabaseAdminUrl());
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    url: url.toString(),
    drop() {
      dropped ??= withAdmin(async (client) => {
        await client.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
          [name],
        );
        await client.query(`drop database if exists ${quote(name)} with (force)`);
      });
      return dropped;
    },
  };
}

/** True when the test server accepts a connection and answers `select 1`. */
export async function postgresAvailable(): Promise<boolean> {
  try {
    await withAdmin((client) => client.query("select 1"));
    return true;
  } catch {
    return false;
  }
}

/**
 * Gate for integration suites. Returns true when `available`. Otherwise, under CI=true it
 * throws (a missing server is a CI failure, never a skip); locally it warns loudly and
 * returns false so the file can `describe.skipIf(!ok)`.
 *
 *   const pgUp = requireInfra("PostgreSQL", await postgresAvailable());
 *   describe.skipIf(!pgUp)("...", () => { ... });
 */
export function requireInfra(name: string, available: boolean): boolean {
  if (available) return true;
  if (process.env.CI === "true") {
    throw new Error(
      `${name} is required for integration tests but is not reachable (CI=true: failing instead of skipping)`,
    );
  }
  console.warn(
    `\n!!! ${name} is not reachable: SKIPPING its integration tests. Start it (see scripts/infra.sh) ` +
      `or run under CI=true to make this a failure. !!!\n`,
  );
  return false;
}
