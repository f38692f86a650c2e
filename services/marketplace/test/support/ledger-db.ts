/**
 * A migrated marketplace schema on a real database for the ledger integration tests: a fresh
 * PostgreSQL database (required when CI=true) or an in-memory PGlite.
 */
import { migrateToLatest } from "@petri/db";
import { type Engine, TestBackend, testEngines } from "@petri/service-testkit";
import type { Kysely } from "kysely";
import { marketplaceMigrations } from "../../src/db/migrations/index.js";
import type { MarketplaceDb } from "../../src/db/schema.js";

export type { Engine };

/** Every scenario runs on both engines (PostgreSQL only when reachable, or CI fails). */
export const ENGINES: Engine[] = await testEngines();

export class LedgerBackend {
  private constructor(private readonly backend: TestBackend) {}

  static async open(engine: Engine): Promise<LedgerBackend> {
    const backend = await TestBackend.open(engine, "petri_marketplace_ledger");
    await migrateToLatest(backend.database, "marketplace", marketplaceMigrations);
    return new LedgerBackend(backend);
  }

  get engine(): Engine {
    return this.backend.engine;
  }

  get db(): Kysely<MarketplaceDb> {
    return this.backend.database.forSchema<MarketplaceDb>("marketplace");
  }

  /** Another pool on the same database (a second replica); PGlite has only one. */
  async replica(): Promise<Kysely<MarketplaceDb>> {
    return (await this.backend.connection()).forSchema<MarketplaceDb>("marketplace");
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}
