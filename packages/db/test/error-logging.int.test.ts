import { createLogger } from "@petri/service-kit";
import { type TestDatabase, createTestDatabase, postgresAvailable, requireInfra } from "@petri/testkit";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../src/create-database.js";
import type { Database } from "../src/database.js";

const pgUp = requireInfra("PostgreSQL", await postgresAvailable());

/**
 * Values bound as parameters of failing statements. The plain ones have no secret shape, so
 * only the database error handling (not the logger's shape rules) can keep them out.
 */
const EXISTING_EMAIL = "existing.owner@example.org";
const EMAIL = "victim.registrant@example.org";
const PLAIN_HASH = "plain-stored-hash-7f3a9c";
const ARGON2_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$ZGlnZXN0ZGlnZXN0";
const NOT_A_NUMBER = "account-number-0042-text";
const BOUND_VALUES = [EXISTING_EMAIL, EMAIL, PLAIN_HASH, ARGON2_HASH, NOT_A_NUMBER, "ZGlnZXN0ZGln"];

interface Accounts {
  accounts: { id: number; email: string; password_hash: string; name: string };
}

/** Statements that fail in the database with parameter values in them, and their SQLSTATEs. */
const FAILURES: { name: string; code: string; run: (db: Kysely<Accounts>) => Promise<unknown> }[] = [
  {
    name: "a unique violation (pg's detail names the duplicate value)",
    code: "23505",
    run: (db) =>
      db
        .insertInto("accounts")
        .values({ id: 2, email: EXISTING_EMAIL, password_hash: ARGON2_HASH, name: "n" })
        .execute(),
  },
  {
    name: "a NUL in a text parameter (the audit's registration)",
    code: "22021",
    run: (db) =>
      db
        .insertInto("accounts")
        .values({ id: 3, email: EMAIL, password_hash: PLAIN_HASH, name: "a\u0000b" })
        .execute(),
  },
  {
    name: "a check violation (pg's detail lists the whole failing row)",
    code: "23514",
    run: (db) =>
      db
        .insertInto("accounts")
        .values({ id: 4, email: EMAIL, password_hash: PLAIN_HASH, name: "forbidden" })
        .execute(),
  },
  {
    name: "input of the wrong type (the message quotes it)",
    code: "22P02",
    run: (db) =>
      db
        .selectFrom("accounts")
        .selectAll()
        .where(sql<boolean>`id = ${NOT_A_NUMBER}::int`)
        .execute(),
  },
];

function errorLoggingSuite(open: () => Promise<Database>, schema: string) {
  let db: Database;
  let accounts: Kysely<Accounts>;

  beforeAll(async () => {
    db = await open();
    await sql`create schema ${sql.id(schema)}`.execute(db.root);
    await sql`
      create table ${sql.id(schema, "accounts")} (
        id int primary key,
        email text not null unique,
        password_hash text not null,
        name text not null check (name <> 'forbidden')
      )`.execute(db.root);
    accounts = db.forSchema<Accounts>(schema);
    await accounts
      .insertInto("accounts")
      .values({ id: 1, email: EXISTING_EMAIL, password_hash: PLAIN_HASH, name: "owner" })
      .execute();
  });
  afterAll(() => db?.destroy());

  it.each(FAILURES)("$name: logged with its SQLSTATE and none of its values", async ({ code, run }) => {
    const error = await run(accounts).then(
      () => expect.fail("the statement should have failed"),
      (caught: unknown) => caught as Error & Record<string, unknown>,
    );
    expect(error.code).toBe(code);
    // The error leaving the package carries no bound parameters (PGlite attaches them).
    expect(error).not.toHaveProperty("params");

    const lines: string[] = [];
    const logger = createLogger({
      service: "db-test",
      destination: { write: (line) => void lines.push(line) },
    });
    logger.error({ err: error, procedure: "/test/Register" }, "unhandled error in rpc handler");
    logger.error(error);
    logger.warn({ err: new Error("the registration failed", { cause: error }) }, "wrapped");

    expect(lines).toHaveLength(3);
    const text = lines.join("");
    for (const value of BOUND_VALUES) expect(text).not.toContain(value);
    const first = JSON.parse(lines[0]!) as { err: Record<string, unknown> };
    expect(first.err).toMatchObject({ type: "DatabaseError", code, severity: "ERROR" });
    expect(first.err).not.toHaveProperty("detail");
  });
}

describe("database errors in the log, PGlite", () => {
  errorLoggingSuite(() => createDatabase({ driver: "pglite", dataDir: "memory://" }), "log_errors");
});

describe.skipIf(!pgUp)("database errors in the log, PostgreSQL", () => {
  let testDb: TestDatabase | undefined;
  afterAll(() => testDb?.drop());
  errorLoggingSuite(async () => {
    testDb = await createTestDatabase();
    return createDatabase({ driver: "pg", url: testDb.url, applicationName: "petri-db-log-errors" });
  }, "log_errors");
});
