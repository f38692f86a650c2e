import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("accounts")
    .addColumn("rate_limit_per_minute", "integer")
    .addColumn("rate_limit_per_day", "integer")
    .execute();
  await db.schema.alterTable("accounts").dropConstraint("accounts_tier_check").execute();
  await db.schema
    .alterTable("accounts")
    .addCheckConstraint("accounts_tier_check", sql`tier in ('standard', 'pro', 'ai_agent', 'custom')`)
    .execute();
  // Limits exactly with the custom tier, within the published bounds.
  await db.schema
    .alterTable("accounts")
    .addCheckConstraint(
      "accounts_custom_rate_limits",
      sql`(tier = 'custom') = (rate_limit_per_minute is not null)
        and (rate_limit_per_minute is null) = (rate_limit_per_day is null)
        and rate_limit_per_minute between 1 and 1000000
        and rate_limit_per_day between rate_limit_per_minute and 1000000000`,
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("accounts").dropConstraint("accounts_custom_rate_limits").execute();
  await db.updateTable("accounts").set({ tier: "standard" }).where("tier", "=", "custom").execute();
  await db.schema.alterTable("accounts").dropConstraint("accounts_tier_check").execute();
  await db.schema
    .alterTable("accounts")
    .addCheckConstraint("accounts_tier_check", sql`tier in ('standard', 'pro', 'ai_agent')`)
    .execute();
  await db.schema.alterTable("accounts").dropColumn("rate_limit_per_day").execute();
  await db.schema.alterTable("accounts").dropColumn("rate_limit_per_minute").execute();
}
