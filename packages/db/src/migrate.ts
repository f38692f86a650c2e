import { type Kysely, type Migration, type MigrationResult, Migrator, sql } from "kysely";
import { assertSchemaName } from "./create-database.js";
import type { Database } from "./database.js";

/** Kysely's default migration table names; one pair per schema. */
export const MIGRATION_TABLE = "kysely_migration";
export const MIGRATION_LOCK_TABLE = "kysely_migration_lock";

/** `YYYY_MM_DD_HHMM_<what>`: names sort chronologically, which is the order they run in. */
export const MIGRATION_NAME =
  /^\d{4}_(0[1-9]|1[0-2])_(0[1-9]|[12]\d|3[01])_([01]\d|2[0-3])[0-5]\d_[a-z0-9]+(_[a-z0-9]+)*$/;

export class MigrationError extends Error {
  constructor(
    readonly schema: string,
    /** Migrations that failed (at most one: the run stops at the first failure). */
    readonly failed: string[],
    /** Migrations that were pending and did not run because of the failure. */
    readonly notExecuted: string[],
    options: { cause: unknown },
  ) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    const where =
      failed.length > 0
        ? `migration ${failed.join(", ")} failed`
        : "migration run failed before any migration ran";
    const skipped = notExecuted.length > 0 ? ` (not run: ${notExecuted.join(", ")})` : "";
    super(`schema "${schema}": ${where}: ${reason}${skipped}; nothing of this run was kept`, options);
    this.name = "MigrationError";
  }
}

function assertMigrationNames(migrations: Record<string, Migration>): void {
  const bad = Object.keys(migrations).filter((name) => !MIGRATION_NAME.test(name));
  if (bad.length > 0) {
    throw new Error(
      `invalid migration name(s) ${bad.join(", ")}: expected YYYY_MM_DD_HHMM_<what> (lower-case)`,
    );
  }
}

function migratorFor(db: Database, schema: string, migrations: Record<string, Migration>): Migrator {
  return new Migrator({
    // Bound to the schema: migrations' unqualified tables land in it.
    db: db.forSchema(schema),
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  });
}

/** `create schema if not exists` can still fail when two sessions race; re-check then. */
async function ensureSchema(root: Kysely<any>, schema: string): Promise<void> {
  if (await schemaExists(root, schema)) return;
  try {
    await root.schema.createSchema(schema).ifNotExists().execute();
  } catch (error) {
    if (!(await schemaExists(root, schema))) throw error;
  }
}

async function schemaExists(root: Kysely<any>, schema: string): Promise<boolean> {
  const { rows } = await sql<{
    found: number;
  }>`select 1 as found from pg_catalog.pg_namespace where nspname = ${schema}`.execute(root);
  return rows.length > 0;
}

/**
 * Creates `schema` when missing and runs every pending migration in it, in name order, in one
 * transaction. The migration bookkeeping tables live in the same schema. Safe to call from
 * several processes at once on PostgreSQL: Kysely serialises runs with an advisory lock
 * (held on a dedicated connection), and the losers find nothing pending.
 * Throws MigrationError naming the failed migration; nothing of the run is kept.
 */
export async function migrateToLatest(
  db: Database,
  schema: string,
  migrations: Record<string, Migration>,
): Promise<void> {
  assertSchemaName(schema);
  assertMigrationNames(migrations);
  await ensureSchema(db.root, schema);
  const { error, results } = await migratorFor(db, schema, migrations).migrateToLatest();
  if (error !== undefined) {
    const named = (status: MigrationResult["status"]) =>
      (results ?? []).filter((result) => result.status === status).map((result) => result.migrationName);
    throw new MigrationError(schema, named("Error"), named("NotExecuted"), { cause: error });
  }
}

export interface MigrationStatus {
  /** True when every known migration has run (readiness). */
  atHead: boolean;
  /** Known migrations not yet run, in run order. */
  pending: string[];
}

/**
 * Which of `migrations` have not run in `schema`. Cheap enough for readiness probes: two
 * small queries, no catalog introspection, no locks. A missing schema means all pending.
 */
export async function migrationStatus(
  db: Database,
  schema: string,
  migrations: Record<string, Migration>,
): Promise<MigrationStatus> {
  assertSchemaName(schema);
  const qualified = `"${schema}"."${MIGRATION_TABLE}"`;
  const { rows } = await sql<{
    present: boolean;
  }>`select to_regclass(${qualified}::text) is not null as present`.execute(db.root);
  let executed = new Set<string>();
  if (rows[0]?.present) {
    const done = await db
      .forSchema<MigrationTables>(schema)
      .selectFrom(MIGRATION_TABLE)
      .select("name")
      .execute();
    executed = new Set(done.map((row) => row.name));
  }
  const pending = Object.keys(migrations)
    .sort()
    .filter((name) => !executed.has(name));
  return { atHead: pending.length === 0, pending };
}

interface MigrationTables {
  [MIGRATION_TABLE]: { name: string; timestamp: string };
}
