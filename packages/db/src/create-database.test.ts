import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schemaIsolationSuite, typeAlignmentSuite } from "../test/support/suites.js";
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

  it("destroy is idempotent and closes the engine", async () => {
    await Promise.all([db.destroy(), db.destroy()]);
    await db.destroy();
    await expect(db.ping()).rejects.toThrow();
  });
});

describe("createDatabase (pglite, directory)", () => {
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
