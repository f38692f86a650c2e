/**
 * A migrated marketplace schema on a real database for the ledger integration tests: a fresh
 * PostgreSQL database (required when CI=true) or an in-memory PGlite.
 */
import { type Database, createDatabase, migrateToLatest } from "@petri/db";
import { type TestDatabase, createTestDatabase, postgresAvailable, requireInfra } from "@petri/testkit";
import type { Kysely } from "kysely";
import { marketplaceMigrations } from "../../src/db/migrations/index.js";
import type { MarketplaceDb } from "../../src/db/schema.js";

export type Engine = "pg" | "pglite";

const pgUp = requireInfra("PostgreSQL", await postgresAvailable());
/** Every scenario runs on both engines (PostgreSQL only when reachable, or CI fails). */
export const ENGINES: Engine[] = pgUp ? ["pg", "pglite"] : ["pglite"];

export class LedgerBackend {
  private readonly opened: Database[] = [];
  private constructor(
    readonly engine: Engine,
    private readonly testDb: TestDatabase | undefined,
    readonly database: Database,
  ) {
    this.opened.push(database);
  }

  static async open(engine: Engine): Promise<LedgerBackend> {
    const backend =
      engine === "pglite"
        ? new LedgerBackend(
            engine,
            undefined,
            await createDatabase({ driver: "pglite", dataDir: "memory://" }),
          )
        : await (async () => {
            const testDb = await createTestDatabase("petri_marketplace_ledger");
            return new LedgerBackend(engine, testDb, await createDatabase({ driver: "pg", url: testDb.url }));
          })();
    await migrateToLatest(backend.database, "marketplace", marketplaceMigrations);
    return backend;
  }

  get db(): Kysely<MarketplaceDb> {
    return this.database.forSchema<MarketplaceDb>("marketplace");
  }

  /** Another pool on the same database (a second replica); PGlite has only one. */
  async replica(): Promise<Kysely<MarketplaceDb>> {
    if (!this.testDb) return this.db;
    const database = await createDatabase({ driver: "pg", url: this.testDb.url });
    this.opened.push(database);
    return database.forSchema<MarketplaceDb>("marketplace");
  }

  async close(): Promise<void> {
    for (const database of this.opened.reverse()) await database.destroy();
    await this.testDb?.drop();
  }
}
