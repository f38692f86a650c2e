import { mkdir } from "node:fs/promises";
import { Kysely, PostgresDialect, sql } from "kysely";
import { Pool } from "pg";
import type { Database, DatabaseConfig, PoolUsage } from "./database.js";
import { namedStatementPool } from "./named-statement-pool.js";
import { recordQuerySpan } from "./query-spans.js";
import { SerialisedPGliteDialect } from "./pglite-dialect.js";
import { pgTypeParsers, pgliteTypeParsers } from "./type-parsers.js";

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names are plain lower-case identifiers (they also name services and streams). */
export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(
      `invalid schema name ${JSON.stringify(schema)}: use lower-case letters, digits and "_" (max 63)`,
    );
  }
}

/**
 * Opens the database selected by `config`:
 * - `pg`: a pg.Pool (max `poolMax` ?? 10) with per-pool type parsers, Kysely's PostgresDialect.
 * - `pglite`: one PGlite (the directory is created when it is a path) behind ONE Kysely; every
 *   `forSchema()` view shares that Kysely's single, serialised connection.
 * Result types are the same on both engines (see type-parsers.ts).
 */
export async function createDatabase(config: DatabaseConfig): Promise<Database> {
  switch (config.driver) {
    case "pg":
      return createPgDatabase(config);
    case "pglite":
      return createPgliteDatabase(config);
    default: {
      const unknown: never = config;
      throw new Error(`unknown database driver ${JSON.stringify((unknown as { driver?: unknown }).driver)}`);
    }
  }
}

function createPgDatabase(config: Extract<DatabaseConfig, { driver: "pg" }>): Database {
  const max = config.poolMax ?? 10;
  const pool = new Pool({
    connectionString: config.url,
    max,
    application_name: config.applicationName ?? "petri",
    types: pgTypeParsers,
  });
  // An idle client losing its connection (server restart, network) is emitted on the pool;
  // without a listener Node would crash the process. The pool drops that client by itself.
  pool.on("error", (error) => config.onIdleClientError?.(error));
  const root = new Kysely<any>({
    dialect: new PostgresDialect({ pool: namedStatementPool(pool) }),
    log: recordQuerySpan,
  });
  const usage = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max });
  return buildDatabase("pg", root, usage, async () => {
    if (!pool.ended) await pool.end();
  });
}

async function createPgliteDatabase(
  config: Extract<DatabaseConfig, { driver: "pglite" }>,
): Promise<Database> {
  const { dataDir } = config;
  // "memory://", "idb://", "file://..." are PGlite URLs; anything else is a directory path.
  if (!/^[a-z]+:\/\//.test(dataDir)) await mkdir(dataDir, { recursive: true });
  // PGlite (a WebAssembly PostgreSQL) is loaded only by the processes that choose it.
  const [{ PGlite }, { PGliteDialect }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("kysely-pglite-dialect"),
  ]);
  const pglite = await PGlite.create(dataDir, { parsers: pgliteTypeParsers });
  const dialect = new SerialisedPGliteDialect(new PGliteDialect(pglite));
  const root = new Kysely<any>({ dialect, log: recordQuerySpan });
  return buildDatabase(
    "pglite",
    root,
    () => undefined,
    async () => {
      if (!pglite.closed) await pglite.close();
    },
  );
}

function buildDatabase(
  driver: Database["driver"],
  root: Kysely<any>,
  poolUsage: () => PoolUsage | undefined,
  closeEngine: () => Promise<void>,
): Database {
  const views = new Map<string, Kysely<any>>();
  let destroyed: Promise<void> | undefined;
  return {
    driver,
    root,
    poolUsage,
    forSchema<DB>(schema: string): Kysely<DB> {
      let view = views.get(schema);
      if (!view) {
        assertSchemaName(schema);
        // withSchema shares root's executor and driver: same pool (pg) or same serialised
        // PGlite connection; it only qualifies unqualified table names in built queries
        // (raw `sql` fragments are not rewritten).
        view = root.withSchema(schema);
        views.set(schema, view);
      }
      return view as Kysely<DB>;
    },
    async ping(): Promise<void> {
      await sql`select 1`.execute(root);
    },
    destroy(): Promise<void> {
      // Kysely only tears its driver down when it was used, so close the engine too.
      destroyed ??= (async () => {
        try {
          await root.destroy();
        } finally {
          await closeEngine();
        }
      })();
      return destroyed;
    },
  };
}
