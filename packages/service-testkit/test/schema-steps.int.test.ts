/**
 * The expand/contract check of migrations (schema-steps.ts) against PostgreSQL: it reports what
 * an older replica could not survive and nothing else.
 */
import type { Kysely, Migration } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractChangesOf, TestBackend } from "../src/index.js";

const step = (up: (db: Kysely<any>) => Promise<void>): Migration => ({ up });

describe("contractChangesOf", () => {
  let backend: TestBackend;

  beforeAll(async () => {
    backend = await TestBackend.open("pg", "petri_test_schema_steps");
  });
  afterAll(() => backend?.close());

  it("lets a history that only adds pass", async () => {
    const history = {
      "2030_01_01_1000_create_things": step((db) =>
        db.schema
          .createTable("things")
          .addColumn("id", "text", (c) => c.primaryKey())
          .execute(),
      ),
      "2030_01_02_1000_add_label": step(async (db) => {
        await db.schema.alterTable("things").addColumn("label", "text").execute();
        await db.schema
          .alterTable("things")
          .addColumn("weight", "integer", (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .alterTable("things")
          .addColumn("seq", "bigint", (c) => c.generatedAlwaysAsIdentity())
          .execute();
        await db.schema
          .createTable("others")
          .addColumn("id", "text", (c) => c.notNull())
          .execute();
      }),
    };
    expect(await contractChangesOf(backend.database, "steps_expand", history)).toEqual([]);
  });

  it("reports each change an older replica could not survive, with its migration", async () => {
    const history = {
      "2030_01_01_1000_create": step(async (db) => {
        await db.schema
          .createTable("things")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("label", "text")
          .addColumn("size", "integer")
          .addColumn("note", "text")
          .execute();
        await db.schema.createTable("old").addColumn("id", "text").execute();
      }),
      "2030_01_02_1000_contract": step(async (db) => {
        await db.schema.alterTable("things").dropColumn("note").execute();
        await db.schema
          .alterTable("things")
          .alterColumn("size", (c) => c.setDataType("bigint"))
          .execute();
        await db.schema
          .alterTable("things")
          .alterColumn("label", (c) => c.setNotNull())
          .execute();
        await db.schema
          .alterTable("things")
          .addColumn("owner", "text", (c) => c.notNull())
          .execute();
        await db.schema.dropTable("old").execute();
      }),
    };
    expect(await contractChangesOf(backend.database, "steps_contract", history)).toEqual([
      { migration: "2030_01_02_1000_contract", change: "drops table old" },
      { migration: "2030_01_02_1000_contract", change: "makes things.label not null" },
      { migration: "2030_01_02_1000_contract", change: "changes the type of things.size (int4 -> int8)" },
      { migration: "2030_01_02_1000_contract", change: "drops column things.note" },
      { migration: "2030_01_02_1000_contract", change: "adds things.owner not null without a default" },
    ]);
  });
});
