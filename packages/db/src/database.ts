import type { Kysely } from "kysely";

/** One config switch selects the engine; handlers and migrations are the same on both. */
export type DatabaseConfig =
  | { driver: "pg"; url: string; poolMax?: number; applicationName?: string }
  /** dataDir is a directory (persisted) or "memory://" (tests). */
  | { driver: "pglite"; dataDir: string };

export interface Database {
  readonly driver: "pg" | "pglite";
  /**
   * Kysely bound to one schema: unqualified table names resolve to "<schema>"."<table>".
   * Every service works through its own schema, so one PGlite (standalone) or one
   * PostgreSQL database (cluster) holds them all without collisions.
   */
  forSchema<DB>(schema: string): Kysely<DB>;
  /** Unbound Kysely, for infrastructure (creating schemas, the in-process bus tables). */
  readonly root: Kysely<any>;
  /** Throws when the database cannot answer `select 1`. */
  ping(): Promise<void>;
  destroy(): Promise<void>;
}
