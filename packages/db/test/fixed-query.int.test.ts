import { type TestDatabase, createTestDatabase, postgresAvailable, requireInfra } from "@petri/testkit";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../src/create-database.js";
import type { Database } from "../src/database.js";
import { FixedQuery, FixedQueryVariants, QueryNeutralPlugin } from "../src/fixed-query.js";

const pgUp = requireInfra("PostgreSQL", await postgresAvailable());

interface NotesDb {
  notes: { id: string; tenant: string; kind: string; created_at: Date; body: string };
}

type Note = NotesDb["notes"];

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const NOTES: Note[] = [];
for (const tenant of ["acme", "globex"])
  for (let i = 0; i < 12; i += 1)
    NOTES.push({
      id: `${tenant}_${String(i).padStart(2, "0")}`,
      tenant,
      kind: i % 3 === 0 ? "draft" : "final",
      // Two notes share each minute: the keyset's id breaks the tie.
      created_at: at(Math.floor(i / 2)),
      body: `note ${i} of ${tenant}`,
    });

interface PageShape {
  kind: boolean;
  after: boolean;
}
interface PageValues extends Record<string, unknown> {
  tenant: string;
  kind?: string | undefined;
  afterAt?: Date | undefined;
  afterId?: string | undefined;
  rows: number;
}

/** The query as code builds it per call: what the fixed one must equal. */
function builtPerCall(db: Kysely<NotesDb>, values: PageValues) {
  let query = db
    .selectFrom("notes")
    .select(["id", "tenant", "kind", "created_at", "body"])
    .where("tenant", "=", values.tenant);
  if (values.kind !== undefined) query = query.where("kind", "=", values.kind);
  const { afterAt, afterId } = values;
  if (afterAt !== undefined && afterId !== undefined)
    query = query.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(afterAt, afterId)));
  return query.orderBy("created_at", "desc").orderBy("id", "desc").limit(values.rows);
}

function pages(prepared: boolean) {
  return new FixedQueryVariants<NotesDb, PageShape, PageValues, Note>(
    (shape) => `${shape.kind}/${shape.after}`,
    (db, value, shape) => {
      let query = db
        .selectFrom("notes")
        .select(["id", "tenant", "kind", "created_at", "body"])
        .where("tenant", "=", value("tenant"));
      if (shape.kind) query = query.where("kind", "=", value("kind"));
      if (shape.after)
        query = query.where((eb) =>
          eb(eb.refTuple("created_at", "id"), "<", eb.tuple(value("afterAt"), value("afterId"))),
        );
      return query.orderBy("created_at", "desc").orderBy("id", "desc").limit(value("rows"));
    },
    { prepared },
  );
}

const shapeOf = (values: PageValues): PageShape => ({
  kind: values.kind !== undefined,
  after: values.afterAt !== undefined,
});

/** Varied inputs: both tenants, with and without each optional part, several page sizes. */
const INPUTS: PageValues[] = [];
for (const tenant of ["acme", "globex", "initech"])
  for (const kind of [undefined, "draft", "final"])
    for (const after of [undefined, { at: at(3), id: `${tenant}_07` }, { at: at(1), id: `${tenant}_02` }])
      for (const rows of [1, 5, 50])
        INPUTS.push({ tenant, kind, afterAt: after?.at, afterId: after?.id, rows });

function fixedQuerySuite(engine: () => Database) {
  let db: Kysely<NotesDb>;
  beforeAll(async () => {
    await sql`create schema if not exists fixed_query`.execute(engine().root);
    db = engine().forSchema<NotesDb>("fixed_query");
    await db.schema
      .createTable("notes")
      .ifNotExists()
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("tenant", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      .execute();
    await db.deleteFrom("notes").execute();
    await db.insertInto("notes").values(NOTES).execute();
  });

  for (const prepared of [false, true])
    it(`returns what the query built per call returns, for every input (prepared: ${prepared})`, async () => {
      const fixed = pages(prepared);
      // Twice over: later executions reuse the compiled query (and on pg, the prepared statement
      // past PostgreSQL's switch to a generic plan after five executions).
      for (const pass of [1, 2, 3, 4, 5, 6])
        for (const values of INPUTS) {
          const expected = await builtPerCall(db, values).execute();
          const actual = await fixed.execute(db, shapeOf(values), values);
          expect({ pass, values, rows: actual }).toEqual({ pass, values, rows: expected });
        }
    });

  it("never shows one tenant's rows to another, whatever was executed before", async () => {
    const fixed = pages(true);
    for (const tenant of ["acme", "globex", "acme", "initech"]) {
      const rows = await fixed.execute(db, { kind: false, after: false }, { tenant, rows: 100 });
      expect(rows.map((row) => row.tenant)).toEqual(
        NOTES.filter((n) => n.tenant === tenant).map(() => tenant),
      );
    }
  });

  it("binds each value at its own position: two values of one type swapped is a different answer", async () => {
    const byTenantAndKind = new FixedQuery<NotesDb, { tenant: string; kind: string }, Note>((k, value) =>
      k
        .selectFrom("notes")
        .selectAll()
        .where("tenant", "=", value("tenant"))
        .where("kind", "=", value("kind"))
        .orderBy("id"),
    );
    const rows = await byTenantAndKind.execute(db, { tenant: "globex", kind: "draft" });
    expect(rows.map((row) => row.id)).toEqual(["globex_00", "globex_03", "globex_06", "globex_09"]);
    expect(await byTenantAndKind.execute(db, { tenant: "draft", kind: "globex" })).toEqual([]);
  });

  it("keeps constants the build wrote in, and refuses to run without a value it binds", async () => {
    const drafts = new FixedQuery<NotesDb, { tenant: string }, Pick<Note, "id">>((k, value) =>
      k
        .selectFrom("notes")
        .select("id")
        .where("kind", "=", "draft")
        .where("tenant", "=", value("tenant"))
        .orderBy("id")
        .limit(2),
    );
    expect(await drafts.execute(db, { tenant: "acme" })).toEqual([{ id: "acme_00" }, { id: "acme_03" }]);
    await expect(drafts.execute(db, {} as { tenant: string })).rejects.toThrow(/no value for "tenant"/);
  });

  it("compiles once per Kysely view, each with its own schema", async () => {
    const ids = new FixedQuery<NotesDb, { tenant: string }, Pick<Note, "id">>((k, value) =>
      k.selectFrom("notes").select("id").where("tenant", "=", value("tenant")),
    );
    expect(ids.sql(db)).toContain('"fixed_query"."notes"');
    expect(ids.sql(engine().forSchema<NotesDb>("other_schema"))).toContain('"other_schema"."notes"');
  });

  it("compiles once for a view and every transaction on it, query-neutral plugins or not", async () => {
    let builds = 0;
    const ids = new FixedQuery<NotesDb, { tenant: string }, Pick<Note, "id">>((k, value) => {
      builds += 1;
      return k.selectFrom("notes").select("id").where("tenant", "=", value("tenant")).orderBy("id").limit(1);
    });
    class Marker extends QueryNeutralPlugin {}
    expect(await ids.execute(db, { tenant: "acme" })).toEqual([{ id: "acme_00" }]);
    for (let i = 0; i < 3; i += 1)
      await db.transaction().execute(async (trx) => {
        expect(await ids.execute(trx.withPlugin(new Marker()), { tenant: "globex" })).toEqual([
          { id: "globex_00" },
        ]);
      });
    expect(builds).toBe(1);
    // A transaction that rewrites its queries (another schema) is compiled for itself.
    await db.transaction().execute(async (trx) => {
      expect(ids.sql(trx.withSchema("other_schema"))).toContain('"other_schema"."notes"');
    });
    expect(builds).toBe(2);
  });

  it("refuses a build that asks for a value it does not bind (Kysely refuses to inline one)", () => {
    const unbound = new FixedQuery<NotesDb, { tenant: string; kind: string }, Pick<Note, "id">>(
      (k, value) => {
        value("kind");
        return k.selectFrom("notes").select("id").where("tenant", "=", value("tenant"));
      },
    );
    expect(() => unbound.sql(db)).toThrow(/"kind" is not a bound parameter/);
    const inlined = new FixedQuery<NotesDb, { tenant: string }, Pick<Note, "id">>((k, value) =>
      k
        .selectFrom("notes")
        .select("id")
        .where("tenant", "=", sql.lit(value("tenant"))),
    );
    expect(() => inlined.sql(db)).toThrow();
  });
}

describe("FixedQuery on PGlite", () => {
  let db: Database;
  beforeAll(async () => {
    db = await createDatabase({ driver: "pglite", dataDir: "memory://" });
  });
  afterAll(() => db?.destroy());
  fixedQuerySuite(() => db);
});

describe.skipIf(!pgUp)("FixedQuery on PostgreSQL", () => {
  let testDb: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await createDatabase({ driver: "pg", url: testDb.url, poolMax: 2 });
  });
  afterAll(async () => {
    await db?.destroy();
    await testDb?.drop();
  });
  fixedQuerySuite(() => db);

  it("runs a prepared fixed query as a named statement, and everything else unnamed", async () => {
    const k = db.forSchema<NotesDb>("fixed_query");
    const byId = new FixedQuery<NotesDb, { id: string }, Pick<Note, "body">>(
      (kk, value) => kk.selectFrom("notes").select("body").where("id", "=", value("id")),
      { prepared: true },
    );
    for (let i = 0; i < 3; i += 1)
      expect(await byId.execute(k, { id: "acme_01" })).toEqual([{ body: "note 1 of acme" }]);
    // pg_prepared_statements is per connection: ask on each of the pool's connections.
    const names = new Set<string>();
    await Promise.all(
      [0, 1].map(() =>
        db.root.connection().execute(async (connection) => {
          const held = connection.withSchema("fixed_query") as unknown as Kysely<NotesDb>;
          expect(await byId.execute(held, { id: "acme_01" })).toEqual([{ body: "note 1 of acme" }]);
          const { rows } = await sql<{ name: string; statement: string }>`
            select name, statement from pg_prepared_statements`.execute(connection);
          for (const row of rows) if (row.statement === byId.sql(k)) names.add(row.name);
        }),
      ),
    );
    expect([...names]).toHaveLength(1);
    expect([...names][0]).toMatch(/^petri_fixed_\d+$/);
  });
});
