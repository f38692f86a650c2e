import { afterAll, beforeAll, describe } from "vitest";
import { migrationSuite } from "../test/support/suites.js";
import { createDatabase } from "./create-database.js";
import type { Database } from "./database.js";

describe("migrateToLatest / migrationStatus (pglite)", () => {
  let db: Database;
  beforeAll(async () => {
    db = await createDatabase({ driver: "pglite", dataDir: "memory://" });
  });
  afterAll(() => db?.destroy());

  migrationSuite(() => db, "unit");
});
