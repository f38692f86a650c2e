import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import type { Pool, PoolClient } from "pg";
import { preparedStatementName } from "./fixed-query.js";

/**
 * The pool Kysely's PostgresDialect is given: pg's own, except that the SQL of a fixed query
 * asking for it (FixedQuery `prepared`) runs as a named prepared statement. pg prepares a
 * name once per connection and afterwards sends only Bind and Execute, so PostgreSQL skips
 * parsing and, once it settles on a generic plan, planning. Every other statement goes
 * through unchanged.
 */
export function namedStatementPool(pool: Pool): PostgresPool {
  const clients = new WeakMap<PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = namedStatementClient(client);
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}

function namedStatementClient(client: PoolClient): PostgresPoolClient {
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== "string") return client.query(sqlOrCursor as never) as PostgresCursor<R>;
    const name = preparedStatementName(sqlOrCursor);
    const values = parameters as unknown[];
    return (name === undefined
      ? client.query(sqlOrCursor, values)
      : client.query({ name, text: sqlOrCursor, values })) as unknown as Promise<PostgresQueryResult<R>>;
  }
  return { query, release: () => client.release() };
}
