/**
 * Queries whose shape is fixed and only whose values change (a read by id, one page of a
 * list): built and compiled once per Kysely view, then executed with new values.
 *
 * Building a Kysely query (immutable nodes frozen at every step, references parsed from
 * strings) and compiling it to SQL cost more CPU than PostgreSQL spends answering a
 * primary-key read; for a hot read the SQL text is the same every time, so both are done
 * once (per dialect and query-rewriting plugins, so also once for every transaction on a
 * view). The values are named placeholders: the build function asks for `value("id")`,
 * Kysely binds the placeholder like any value, and each execution puts the real values at
 * the positions where the placeholders ended up in the compiled parameters.
 *
 * With `prepared: true`, the pg engine also runs the SQL as a named prepared statement
 * (parsed and planned once per connection, see createDatabase); PGlite runs it as usual.
 */
import type {
  Compilable,
  CompiledQuery,
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";

/** What a build function binds in place of a value: resolved at each execution. */
class Placeholder {
  constructor(readonly name: string) {}
}

/**
 * In a build function: the value named `name`, bound at execution. Values a shape does not
 * use may be absent (undefined); a value the query uses must be given.
 */
export type ValueOf<Values> = <K extends keyof Values & string>(name: K) => Exclude<Values[K], undefined>;

export interface FixedQueryOptions {
  /** Run as a named prepared statement on the pg engine (the SQL text is its identity). */
  prepared?: boolean;
}

interface Compiled {
  query: CompiledQuery;
  /** For each compiled parameter: the placeholder's name, or undefined for a constant. */
  names: ReadonlyArray<string | undefined>;
}

const preparedStatements = new Map<string, string>();

/**
 * The statement name under which the pg engine prepares `sql`, if a fixed query asked for it.
 * One name per distinct SQL text for the whole process, so a connection never sees one name
 * for two texts.
 */
export function preparedStatementName(sql: string): string | undefined {
  return preparedStatements.get(sql);
}

function registerPrepared(sql: string): void {
  if (!preparedStatements.has(sql)) preparedStatements.set(sql, `petri_fixed_${preparedStatements.size + 1}`);
}

/**
 * A plugin that changes no query and no result: a marker a transaction carries (e.g. "tell me
 * when events are recorded"). Fixed queries compile the same SQL with or without one, so they
 * leave it out of what their compilation is cached by.
 */
export abstract class QueryNeutralPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

interface CacheNode {
  compiled?: Compiled;
  byPlugin?: WeakMap<KyselyPlugin, CacheNode>;
}

/**
 * Compilations by what decides the SQL text: the dialect (its adapter) and the plugins that
 * may rewrite queries, in order. A transaction is a new Kysely instance with the same adapter
 * and the same plugin objects as the view it was opened on, so it finds the view's entry.
 */
class CompilationCache {
  readonly #byAdapter = new WeakMap<object, CacheNode>();

  node(db: Kysely<any>): CacheNode {
    const executor = db.getExecutor();
    let node = this.#byAdapter.get(executor.adapter);
    if (!node) this.#byAdapter.set(executor.adapter, (node = {}));
    for (const plugin of executor.plugins) {
      if (plugin instanceof QueryNeutralPlugin) continue;
      node.byPlugin ??= new WeakMap();
      let next = node.byPlugin.get(plugin);
      if (!next) node.byPlugin.set(plugin, (next = {}));
      node = next;
    }
    return node;
  }
}

export class FixedQuery<DB, Values extends Record<string, unknown>, Row> {
  readonly #compiled = new CompilationCache();

  constructor(
    private readonly build: (db: Kysely<DB>, value: ValueOf<Values>) => Compilable<Row>,
    private readonly options: FixedQueryOptions = {},
  ) {}

  /** The rows for `values`, as the query built with those values would return them. */
  async execute(db: Kysely<DB>, values: Values): Promise<Row[]> {
    const { query, names } = this.compiledFor(db);
    const parameters = names.map((name, index) =>
      name === undefined ? query.parameters[index] : valueOf(values, name),
    );
    const result = await db.executeQuery<Row>({ ...query, parameters });
    return result.rows;
  }

  /** The first row for `values`, or undefined. */
  async executeTakeFirst(db: Kysely<DB>, values: Values): Promise<Row | undefined> {
    return (await this.execute(db, values))[0];
  }

  /** The compiled SQL (for tests and EXPLAIN). */
  sql(db: Kysely<DB>): string {
    return this.compiledFor(db).query.sql;
  }

  private compiledFor(db: Kysely<DB>): Compiled {
    const node = this.#compiled.node(db);
    if (!node.compiled) {
      node.compiled = compile(db, this.build);
      if (this.options.prepared) registerPrepared(node.compiled.query.sql);
    }
    return node.compiled;
  }
}

function valueOf(values: Record<string, unknown>, name: string): unknown {
  const value = values[name];
  // undefined would be sent as NULL, and "= NULL" silently matches nothing.
  if (value === undefined) throw new TypeError(`fixed query: no value for "${name}"`);
  return value;
}

function compile<DB, Values, Row>(
  db: Kysely<DB>,
  build: (db: Kysely<DB>, value: ValueOf<Values>) => Compilable<Row>,
): Compiled {
  const asked = new Set<string>();
  const value = ((name: string) => {
    asked.add(name);
    return new Placeholder(name);
  }) as ValueOf<Values>;
  const query = build(db, value).compile();
  const names = query.parameters.map((parameter) =>
    parameter instanceof Placeholder ? parameter.name : undefined,
  );
  for (const name of asked) {
    // A placeholder Kysely wrote into the SQL text instead of binding it would be executed as
    // that text forever.
    if (!names.includes(name)) throw new Error(`fixed query: the value "${name}" is not a bound parameter`);
  }
  return { query, names };
}

/**
 * A fixed query per shape, for a query with optional parts (filters present or not): each
 * distinct `keyOf(shape)` is built and compiled once, from the first shape with that key, so
 * the build may depend on the shape only through what its key says. Keep the number of
 * shapes small (a few optional filters): each is its own SQL text.
 */
export class FixedQueryVariants<DB, Shape, Values extends Record<string, unknown>, Row> {
  readonly #variants = new Map<string, FixedQuery<DB, Values, Row>>();

  constructor(
    private readonly keyOf: (shape: Shape) => string,
    private readonly build: (db: Kysely<DB>, value: ValueOf<Values>, shape: Shape) => Compilable<Row>,
    private readonly options: FixedQueryOptions = {},
  ) {}

  execute(db: Kysely<DB>, shape: Shape, values: Values): Promise<Row[]> {
    return this.variant(shape).execute(db, values);
  }

  sql(db: Kysely<DB>, shape: Shape): string {
    return this.variant(shape).sql(db);
  }

  private variant(shape: Shape): FixedQuery<DB, Values, Row> {
    const key = this.keyOf(shape);
    let variant = this.#variants.get(key);
    if (!variant) {
      variant = new FixedQuery((db, value) => this.build(db, value, shape), this.options);
      this.#variants.set(key, variant);
    }
    return variant;
  }
}
