import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schemaIsolationSuite, typeAlignmentSuite } from "../test/support/suites.js";
import { transactionWithCommitHooks } from "./after-commit.js";
import { createDatabase } from "./create-database.js";
import type { Database } from "./database.js";

// One in-memory PGlite for the file (each instance costs ~0.25-0.7 GiB and seconds to start).
describe("createDatabase (pglite, memory://)", () => {
  let db: Database;
  beforeAll(async () => {
    db = await createDatabase({ driver: "pglite", dataDir: "memory://" });
  });
  afterAll(() => db?.destroy());

  it("answers ping", async () => {
    expect(db.driver).toBe("pglite");
    await db.ping();
  });

  typeAlignmentSuite(() => db, "unit");
  schemaIsolationSuite(() => db, "unit");

  describe("transactionWithCommitHooks", () => {
    beforeAll(async () => {
      // A deferred foreign key is checked at commit: it lets a test make the commit itself fail.
      await sql`create table hooked (
        id integer primary key,
        ref integer references hooked (id) deferrable initially deferred
      )`.execute(db.root);
    });

    it("runs the callbacks in order once the transaction committed, not inside it", async () => {
      const calls: string[] = [];
      const result = await transactionWithCommitHooks(db.root, async (trx, onCommit) => {
        await trx.insertInto("hooked").values({ id: 1, ref: null }).execute();
        onCommit(() => calls.push("first"));
        onCommit(() => calls.push("second"));
        expect(calls).toEqual([]);
        return "done";
      });
      expect(result).toBe("done");
      expect(calls).toEqual(["first", "second"]);
    });

    it("runs none when the work throws (rollback)", async () => {
      const calls: string[] = [];
      await expect(
        transactionWithCommitHooks(db.root, async (trx, onCommit) => {
          await trx.insertInto("hooked").values({ id: 2, ref: null }).execute();
          onCommit(() => calls.push("woken"));
          throw new Error("changed my mind");
        }),
      ).rejects.toThrow("changed my mind");
      expect(calls).toEqual([]);
      expect(await db.root.selectFrom("hooked").select("id").where("id", "=", 2).execute()).toEqual([]);
    });

    it("runs none when the commit itself fails", async () => {
      const calls: string[] = [];
      await expect(
        transactionWithCommitHooks(db.root, async (trx, onCommit) => {
          await trx.insertInto("hooked").values({ id: 3, ref: 999 }).execute();
          onCommit(() => calls.push("woken"));
        }),
      ).rejects.toThrow();
      expect(calls).toEqual([]);
    });

    it("reports a throwing callback without failing the committed transaction", async () => {
      const reported: unknown[] = [];
      const calls: string[] = [];
      await transactionWithCommitHooks(
        db.root,
        async (trx, onCommit) => {
          await trx.insertInto("hooked").values({ id: 4, ref: null }).execute();
          onCommit(() => {
            throw new Error("wake-up broke");
          });
          onCommit(() => calls.push("still woken"));
        },
        (error) => reported.push(error),
      );
      expect(reported).toHaveLength(1);
      expect(calls).toEqual(["still woken"]);
      expect(await db.root.selectFrom("hooked").select("id").where("id", "=", 4).execute()).toEqual([
        { id: 4 },
      ]);
    });
  });

  it("destroy is idempotent and closes the engine", async () => {
    await Promise.all([db.destroy(), db.destroy()]);
    await db.destroy();
    await expect(db.ping()).rejects.toThrow();
  });
});

// A fresh data directory runs PGlite's initdb (WebAssembly, on this thread), then the test opens
// it again: over 30 s on a loaded 2-core CI machine, so the hang guard is wider than the default.
describe("createDatabase (pglite, directory)", { timeout: 120_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "petri-db-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("creates a missing data directory and persists across reopen", async () => {
    const dataDir = join(dir, "nested", "pgdata");
    const first = await createDatabase({ driver: "pglite", dataDir });
    try {
      await first.root.schema.createTable("kept").addColumn("v", "text").execute();
      await first.root.insertInto("kept").values({ v: "still here" }).execute();
    } finally {
      await first.destroy();
    }
    expect((await stat(dataDir)).isDirectory()).toBe(true);
    const second = await createDatabase({ driver: "pglite", dataDir });
    try {
      expect(await second.root.selectFrom("kept").select("v").execute()).toEqual([{ v: "still here" }]);
    } finally {
      await second.destroy();
    }
  });

  it("destroy without any query still closes the engine", async () => {
    const db = await createDatabase({ driver: "pglite", dataDir: join(dir, "nested", "pgdata") });
    await db.destroy();
    // Kysely skips its driver's destroy when it never ran a query; the PGlite must be closed anyway.
    await expect(db.ping()).rejects.toThrow();
  });
});
