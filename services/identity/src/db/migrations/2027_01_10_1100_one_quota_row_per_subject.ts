import { type Kysely, sql } from "kysely";

/**
 * Quota counters move from one row per window to one row per subject, so that a draw is one
 * statement under one row lock. The counts of the windows still open are carried over (the
 * limits are the ones of the next draw); the rest is history the purge would drop anyway.
 */
// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("quota_usage")
    .addColumn("policy", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("minute_start", "timestamptz", (c) => c.notNull())
    .addColumn("minute_limit", "integer", (c) => c.notNull())
    .addColumn("minute_used", "integer", (c) => c.notNull().check(sql`minute_used >= 0`))
    .addColumn("day_start", "timestamptz", (c) => c.notNull())
    .addColumn("day_limit", "integer")
    .addColumn("day_used", "integer", (c) => c.notNull().check(sql`day_used >= 0`))
    .addColumn("granted", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("quota_usage_pkey", ["policy", "subject"])
    .execute();
  await db.schema.createIndex("quota_usage_day_start_idx").on("quota_usage").column("day_start").execute();

  // The latest window of each name per subject; a subject without a day row (a policy with
  // a minute limit only) starts its day count at what its minute had.
  const latest = (window: string, alias: string) =>
    db
      .selectFrom("quota_counters")
      .distinctOn(["policy", "subject"])
      .select(["policy", "subject", "window_start", "used"])
      .where("window_name", "=", window)
      .orderBy("policy")
      .orderBy("subject")
      .orderBy("window_start", "desc")
      .as(alias);
  await db
    .insertInto("quota_usage")
    .columns([
      "policy",
      "subject",
      "minute_start",
      "minute_limit",
      "minute_used",
      "day_start",
      "day_limit",
      "day_used",
      "granted",
    ])
    .expression(
      db
        .selectFrom(latest("minute", "m"))
        .leftJoin(latest("day", "d"), (join) =>
          join.onRef("d.policy", "=", "m.policy").onRef("d.subject", "=", "m.subject"),
        )
        .select([
          "m.policy",
          "m.subject",
          "m.window_start",
          sql<number>`0`.as("minute_limit"),
          "m.used",
          sql<Date>`coalesce(d.window_start, date_trunc('day', m.window_start, 'UTC'))`.as("day_start"),
          sql<null>`null::integer`.as("day_limit"),
          sql<number>`coalesce(d.used, m.used)`.as("day_used"),
          sql<number>`0`.as("granted"),
        ]),
    )
    .execute();
  await db.schema.dropTable("quota_counters").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("quota_counters")
    .addColumn("policy", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("window_name", "text", (c) => c.notNull())
    .addColumn("window_start", "timestamptz", (c) => c.notNull())
    .addColumn("window_end", "timestamptz", (c) => c.notNull())
    .addColumn("used", "integer", (c) => c.notNull().check(sql`used >= 0`))
    .addPrimaryKeyConstraint("quota_counters_pkey", ["policy", "subject", "window_name", "window_start"])
    .execute();
  await db.schema
    .createIndex("quota_counters_window_end_idx")
    .on("quota_counters")
    .column("window_end")
    .execute();
  await db.schema.dropTable("quota_usage").execute();
}
