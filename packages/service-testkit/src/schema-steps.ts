import { type Database, migrateToLatest } from "@petri/db";
import { type Migration, sql } from "kysely";

/**
 * A change a migration makes that the code of the release before it may not survive: while a
 * service is rolled one replica at a time, old and new replicas share the schema the new
 * release migrated to, so a migration may add (expand) but must not take away or narrow what
 * the old code reads and writes. Such a change is a contract step: it ships a release after
 * the code stopped depending on it, and is declared as such.
 */
export interface ContractChange {
  migration: string;
  change: string;
}

interface Column {
  type: string;
  nullable: boolean;
  hasDefault: boolean;
}

/** table -> column -> shape, for every table of `schema` but the migration bookkeeping. */
type Shape = Map<string, Map<string, Column>>;

async function shapeOf(database: Database, schema: string): Promise<Shape> {
  const { rows } = await sql<{
    table_name: string;
    column_name: string;
    udt_name: string;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
    is_generated: string;
  }>`select table_name, column_name, udt_name, is_nullable, column_default, is_identity, is_generated
       from information_schema.columns
      where table_schema = ${schema} and table_name not like 'kysely_migration%'
      order by table_name, ordinal_position`.execute(database.root);
  const shape: Shape = new Map();
  for (const row of rows) {
    let table = shape.get(row.table_name);
    if (!table) shape.set(row.table_name, (table = new Map()));
    table.set(row.column_name, {
      type: row.udt_name,
      nullable: row.is_nullable === "YES",
      // An identity or generated column fills itself in, as a default does.
      hasDefault: row.column_default !== null || row.is_identity === "YES" || row.is_generated === "ALWAYS",
    });
  }
  return shape;
}

/** What `after` takes away from or narrows in `before` (tables that `before` did not have are new: free). */
function contractChanges(before: Shape, after: Shape): string[] {
  const changes: string[] = [];
  for (const [tableName, columns] of before) {
    const table = after.get(tableName);
    if (!table) {
      changes.push(`drops table ${tableName}`);
      continue;
    }
    for (const [columnName, column] of columns) {
      const now = table.get(columnName);
      if (!now) changes.push(`drops column ${tableName}.${columnName}`);
      else if (now.type !== column.type)
        changes.push(`changes the type of ${tableName}.${columnName} (${column.type} -> ${now.type})`);
      else if (column.nullable && !now.nullable) changes.push(`makes ${tableName}.${columnName} not null`);
    }
    for (const [columnName, column] of table) {
      if (!columns.has(columnName) && !column.nullable && !column.hasDefault)
        changes.push(`adds ${tableName}.${columnName} not null without a default`);
    }
  }
  return changes;
}

/**
 * Runs `migrations` one at a time into a fresh `schema` of `database` and returns every change
 * of a migration that the code of the step before could not survive (see ContractChange), in
 * order. An expand-only history returns [].
 */
export async function contractChangesOf(
  database: Database,
  schema: string,
  migrations: Record<string, Migration>,
): Promise<ContractChange[]> {
  const names = Object.keys(migrations).sort();
  const found: ContractChange[] = [];
  let before: Shape = new Map();
  for (const [index, name] of names.entries()) {
    const upToThis = Object.fromEntries(names.slice(0, index + 1).map((n) => [n, migrations[n]!]));
    await migrateToLatest(database, schema, upToThis);
    const after = await shapeOf(database, schema);
    for (const change of contractChanges(before, after)) found.push({ migration: name, change });
    before = after;
  }
  return found;
}
