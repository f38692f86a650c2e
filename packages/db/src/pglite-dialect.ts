import {
  CompiledQuery,
  type DatabaseConnection,
  type QueryResult,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type TransactionSettings,
} from "kysely";
import type { PGliteDialect } from "kysely-pglite-dialect";
import { withoutBoundValues } from "./errors.js";

/**
 * kysely-pglite-dialect with the parts of Kysely's PostgresDriver it lacks (savepoints and
 * `read only` transactions), so `trx.savepoint()` and `setAccessMode()` behave as on pg.
 *
 * Serialisation is the inner driver's: it owns ONE connection object over the PGlite and a
 * FIFO queue. `acquireConnection()` hands the connection out only when nobody holds it;
 * Kysely holds it for a single statement (autocommit) or for a whole transaction, from
 * `begin` to `commit`/`rollback`. So a concurrent query waits until the transaction ends and
 * can never run inside it. Consequence: a query on the outer `db` inside
 * `db.transaction().execute(...)` waits for the transaction that waits for it (deadlock);
 * always use `trx`. Build exactly one dialect per PGlite: a second one would have its own
 * queue and interleave its statements into the first one's transactions.
 */
export class SerialisedPGliteDialect implements Dialect {
  readonly #inner: PGliteDialect;

  /** `inner` over the one PGlite (PGlite and its dialect are loaded only where PGlite is chosen). */
  constructor(inner: PGliteDialect) {
    this.#inner = inner;
  }

  createAdapter(): DialectAdapter {
    return this.#inner.createAdapter();
  }

  createDriver(): Driver {
    return new SavepointDriver(this.#inner.createDriver());
  }

  createQueryCompiler(): QueryCompiler {
    return this.#inner.createQueryCompiler();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.#inner.createIntrospector(db);
  }
}

const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

class SavepointDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new BoundValueFreeConnection(await this.inner.acquireConnection());
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let statement = "begin";
    if (settings.isolationLevel || settings.accessMode) {
      statement = "start transaction";
      if (settings.isolationLevel) statement += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) statement += ` ${settings.accessMode}`;
    }
    await connection.executeQuery(CompiledQuery.raw(statement));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdentifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdentifier(name)}`));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    // The inner driver checks that it gets its own connection object back.
    const inner = connection instanceof BoundValueFreeConnection ? connection.inner : connection;
    return this.inner.releaseConnection(inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * PGlite attaches the statement's bound parameters to its errors (`params`), which would carry
 * e-mails and password hashes to whatever logs or stores the error; node-postgres does not.
 * This connection removes them, so an error leaves the database package alike on both engines.
 */
class BoundValueFreeConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(compiledQuery);
    } catch (error) {
      throw withoutBoundValues(error);
    }
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(compiledQuery, chunkSize);
    } catch (error) {
      throw withoutBoundValues(error);
    }
  }
}
