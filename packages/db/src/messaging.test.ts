import { afterAll, beforeAll, describe } from "vitest";
import { idempotencySuite, messagingTablesSuite } from "../test/support/suites.js";
import { createDatabase } from "./create-database.js";
import type { Database } from "./database.js";

describe("messaging tables and idempotency keys (pglite)", () => {
  let db: Database;
  beforeAll(async () => {
    db = await createDatabase({ driver: "pglite", dataDir: "memory://" });
  });
  afterAll(() => db?.destroy());

  describe("messaging tables", () => messagingTablesSuite(() => db, "unit"));
  describe("idempotency", () => idempotencySuite(() => db, "unit"));
});
