import type { Kysely } from "kysely";

/** One config switch selects the engine; handlers and migrations are the same on both. */
export type DatabaseConfig =
  | {
      driver: "pg";
      url: string;
      poolMax?: number;
      applicationName?: string;
      /** Called when an idle pooled connection fails (the pool discards it); default: ignored. */
      onIdleClientError?: (error: Error) => void;
    }
  /** dataDir is a directory (persisted) or "memory://" (tests). */
  | { driver: "pglite"; dataDir: string };

export interface Database {
  readonly driver: "pg" | "pglite";
  /**
   * Kysely bound to one schema: unqualified table names resolve to "<schema>"."<table>".
   * Every service works through its own schema, so one PGlite (standalone) or one
   * PostgreSQL database (cluster) holds them all without collisions.
   *
   * Table names inside raw `sql` fragments are NOT qualified; use the query builder or
   * `sql.table("<schema>.<table>")`. On PGlite every view shares one serialised connection:
   * inside `db.transaction().execute(trx => ...)` use only `trx` (the outer db would wait
   * for the transaction that waits for it).
   */
  forSchema<DB>(schema: string): Kysely<DB>;
  /** Unbound Kysely, for infrastructure (creating schemas, the in-process bus tables). */
  readonly root: Kysely<any>;
  /**
   * The connection pool's state right now (pg); undefined on PGlite, whose single serialised
   * connection is no pool.
   */
  poolUsage(): PoolUsage | undefined;
  /** Throws when the database cannot answer `select 1`. */
  ping(): Promise<void>;
  /** Closes the pool / PGlite; idempotent (later calls await the first). */
  destroy(): Promise<void>;
}

export interface PoolUsage {
  /** Open connections (idle + in use). */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** The pool's ceiling (poolMax). */
  max: number;
}
