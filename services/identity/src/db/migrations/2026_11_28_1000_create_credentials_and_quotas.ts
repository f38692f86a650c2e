import { type Kysely, sql } from "kysely";

// Frozen in time: never import application types into a migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    // "petri_sk_" + 3 characters: enough to tell keys apart, useless for guessing.
    .addColumn("display_prefix", "text", (c) => c.notNull())
    // HMAC-SHA256(pepper, secret); the secret itself is never stored.
    .addColumn("secret_hash", "bytea", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("revoked_at", "timestamptz")
    .addColumn("last_used_at", "timestamptz")
    .addUniqueConstraint("api_keys_secret_hash_key", ["secret_hash"])
    .execute();
  await db.schema
    .createIndex("api_keys_account_created_idx")
    .on("api_keys")
    .columns(["account_id", "created_at"])
    .execute();

  await db.schema
    .createTable("signing_keys")
    .addColumn("kid", "text", (c) => c.primaryKey())
    .addColumn("public_jwk", "jsonb", (c) => c.notNull())
    // AES-256-GCM under the KEK (ciphertext || tag), its nonce and the KEK's id.
    .addColumn("private_key_ciphertext", "bytea", (c) => c.notNull())
    .addColumn("private_key_nonce", "bytea", (c) => c.notNull())
    .addColumn("kek_id", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull().check(sql`state in ('active', 'retiring')`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("retires_at", "timestamptz")
    .addCheckConstraint(
      "signing_keys_retiring_has_retires_at",
      sql`(state = 'active') = (retires_at is null)`,
    )
    .execute();
  // At most one active key, whatever replicas do at once.
  await db.schema
    .createIndex("signing_keys_one_active")
    .on("signing_keys")
    .column("state")
    .unique()
    .where("state", "=", "active")
    .execute();

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
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("quota_counters").execute();
  await db.schema.dropTable("signing_keys").execute();
  await db.schema.dropTable("api_keys").execute();
}
