import { create } from "@bufbuild/protobuf";
import { AccountRegisteredSchema, AccountSchema } from "@petri/contracts/identity";
import { type Database, createDatabase, migrateToLatest } from "@petri/db";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationsMigrations } from "../db/migrations/index.js";
import type { NotificationsDb } from "../db/schema.js";
import { recordAccountContact } from "./record-account-contact.js";

const registered = (email: string) =>
  create(AccountRegisteredSchema, { account: create(AccountSchema, { id: "usr_1", email, name: "Ada" }) });

describe("recordAccountContact", () => {
  let database: Database;
  let db: Kysely<NotificationsDb>;

  beforeAll(async () => {
    database = await createDatabase({ driver: "pglite", dataDir: "memory://" });
    await migrateToLatest(database, "notifications", notificationsMigrations);
    db = database.forSchema<NotificationsDb>("notifications");
  });
  afterAll(() => database.destroy());

  const contact = () =>
    db.selectFrom("account_contacts").selectAll().where("account_id", "=", "usr_1").executeTakeFirst();

  it("keeps the newest version whatever order the events arrive in", async () => {
    await recordAccountContact(db, registered("v2@example.org"), {
      aggregateVersion: 2,
      occurredAt: new Date(2),
    });
    await recordAccountContact(db, registered("v1@example.org"), {
      aggregateVersion: 1,
      occurredAt: new Date(1),
    });
    expect((await contact())?.email).toBe("v2@example.org");
    await recordAccountContact(db, registered("v3@example.org"), {
      aggregateVersion: 3,
      occurredAt: new Date(3),
    });
    expect((await contact())?.email).toBe("v3@example.org");
  });

  it("is idempotent for a redelivered event", async () => {
    await recordAccountContact(db, registered("v3@example.org"), {
      aggregateVersion: 3,
      occurredAt: new Date(3),
    });
    const rows = await db.selectFrom("account_contacts").selectAll().execute();
    expect(rows).toHaveLength(1);
  });
});
