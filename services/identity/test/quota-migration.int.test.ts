/**
 * The move of quota counters to one row per subject keeps what the open windows had used, so
 * an upgrade in the middle of a minute or a day admits no more than the limit.
 */
import { migrateToLatest } from "@petri/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityMigrations } from "../src/db/migrations/index.js";
import { Backend, ENGINES } from "./support/harness.js";

const ONE_ROW_PER_SUBJECT = "2027_01_10_1100_one_quota_row_per_subject";

describe.each(ENGINES)("the quota counters migration on %s", (engine) => {
  let backend: Backend;

  beforeAll(async () => {
    backend = await Backend.open(engine);
  });
  afterAll(() => backend?.close());

  it("carries every subject's latest minute and day counts over", async () => {
    const schema = "identity_upgrade";
    const before = Object.fromEntries(
      Object.entries(identityMigrations).filter(([name]) => name < ONE_ROW_PER_SUBJECT),
    );
    await migrateToLatest(backend.database, schema, before);
    const db = backend.database.forSchema<any>(schema);
    const row = (subject: string, window: string, start: string, end: string, used: number) => ({
      policy: subject.startsWith("usr") ? "account" : "credential_failures",
      subject,
      window_name: window,
      window_start: new Date(start),
      window_end: new Date(end),
      used,
    });
    await db
      .insertInto("quota_counters")
      .values([
        row("usr_a", "minute", "2026-03-02T09:59:00Z", "2026-03-02T10:00:00Z", 70),
        row("usr_a", "minute", "2026-03-02T10:00:00Z", "2026-03-02T10:01:00Z", 40),
        row("usr_a", "day", "2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z", 610),
        row("pair_b", "minute", "2026-03-02T10:00:00Z", "2026-03-02T10:01:00Z", 12),
      ])
      .execute();

    await migrateToLatest(backend.database, schema, identityMigrations);
    const rows = await db
      .selectFrom("quota_usage")
      .select(["subject", "minute_start", "minute_used", "day_start", "day_used"])
      .orderBy("subject")
      .execute();
    expect(rows).toEqual([
      {
        subject: "pair_b",
        minute_start: new Date("2026-03-02T10:00:00Z"),
        minute_used: 12,
        day_start: new Date("2026-03-02T00:00:00Z"),
        day_used: 12,
      },
      {
        subject: "usr_a",
        minute_start: new Date("2026-03-02T10:00:00Z"),
        minute_used: 40,
        day_start: new Date("2026-03-02T00:00:00Z"),
        day_used: 610,
      },
    ]);
  });
});
