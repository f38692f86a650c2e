/**
 * A work queue kept in a table, written once for every background worker that takes rows
 * from one (the outbox relay, webhook deliveries, e-mail, engine runs, cloud-lab submissions).
 *
 * A worker leases rows (sets `lease_until`, and `lease_owner` where the table names its
 * holder) in one statement whose row selection is FOR UPDATE SKIP LOCKED, so replicas lease
 * side by side without waiting on each other and never take the same row; nothing stays
 * locked while the work runs, the lease is the only claim. A worker that dies leaves its
 * leases to run out: a lease whose `lease_until` has passed is free to take over. Every
 * write a worker makes after the lease is guarded by it (the row id, the owner, and the
 * table's "held" condition), so a worker that lost its row changes nothing.
 *
 * The table has an `id` text key and a `lease_until` timestamptz; the rest is described by
 * a LeasedQueueTable.
 */
import type {
  Expression,
  ExpressionBuilder,
  Kysely,
  Selectable,
  SqlBool,
  Transaction,
  UpdateObject,
} from "kysely";
import { FixedQuery } from "./fixed-query.js";

type Column<DB, TB extends keyof DB> = keyof DB[TB] & string;
type Condition<DB, TB extends keyof DB> = (eb: ExpressionBuilder<DB, TB>) => Expression<SqlBool>;
type Changes<DB, TB extends keyof DB & string> =
  UpdateObject<DB, TB> | ((eb: ExpressionBuilder<DB, TB>) => UpdateObject<DB, TB>);
/** Changes as the queue composes them (its own columns added to the caller's). */
type RawChanges = Record<string, unknown> | ((eb: ExpressionBuilder<any, any>) => Record<string, unknown>);

export interface LeasedQueueTable<DB, TB extends keyof DB & string> {
  table: TB;
  /**
   * Rows that are waiting for a worker, once due and not leased (e.g. status is pending). Its
   * values are constants: a plain lease compiles it once (FixedQuery).
   */
  waiting: Condition<DB, TB>;
  /** The column saying when a waiting row falls due; without it a waiting row is due at once. */
  dueAt?: Column<DB, TB>;
  /** The order rows are leased in (oldest first). */
  orderBy: readonly Column<DB, TB>[];
  /** The column naming the worker holding the lease; without it leases are anonymous. */
  owner?: Column<DB, TB>;
  /** A counter of leases taken, raised by each lease and lowered when one is handed back. */
  attempts?: Column<DB, TB>;
  /**
   * Where a retry's time goes: the dueAt column, or `lease_until` for a table without one
   * (the row then stays held until its retry is due).
   */
  retryAt?: Column<DB, TB>;
  /** What a row looks like while leased, when leasing changes it (e.g. status is RUNNING). */
  held?: Condition<DB, TB>;
}

/** A leased row and the worker holding it (no owner for an anonymous queue). */
export interface LeaseRef {
  id: string;
  owner?: string | undefined;
}

export interface LeaseRequest<DB, TB extends keyof DB & string> {
  now: Date;
  leaseUntil: Date;
  limit: number;
  /** The leasing worker, for a table with an owner column. */
  owner?: string;
  /** Only these rows (those still due and free); otherwise any due rows, in order. */
  ids?: readonly string[];
  /** What else leasing changes (e.g. the status). */
  set?: UpdateObject<DB, TB>;
}

/** The table description as the query builder sees it: names only (the types are checked at the spec). */
interface Names {
  table: string;
  dueAt?: string | undefined;
  orderBy: readonly string[];
  owner?: string | undefined;
  attempts?: string | undefined;
  retryAt?: string | undefined;
  waiting(eb: ExpressionBuilder<any, any>): Expression<SqlBool>;
  held?: ((eb: ExpressionBuilder<any, any>) => Expression<SqlBool>) | undefined;
}

interface PlainLeaseValues extends Record<string, unknown> {
  now: Date;
  leaseUntil: Date;
  limit: number;
  /** Unused by a queue without an owner column. */
  owner: string;
}

export class LeasedQueue<DB, TB extends keyof DB & string> {
  private readonly db: Kysely<any>;
  private readonly spec: Names;
  /** The lease of any due rows with nothing else changed (the common one): compiled once. */
  private readonly plainLease = new FixedQuery<any, PlainLeaseValues, unknown>(
    (db, value) =>
      this.leaseQuery(db, {
        now: value("now"),
        leaseUntil: value("leaseUntil"),
        limit: value("limit"),
        ...(this.spec.owner ? { owner: value("owner") } : {}),
      }),
    { prepared: true },
  );

  constructor(db: Kysely<DB>, spec: LeasedQueueTable<DB, TB>) {
    this.db = db as Kysely<any>;
    this.spec = spec as unknown as Names;
  }

  /**
   * Leases up to `limit` due, free rows, in the table's order, and returns them as leased
   * (in no particular order: sort them if it matters). Rows another worker is leasing right
   * now are skipped, not waited for.
   */
  async lease(request: LeaseRequest<DB, TB>): Promise<Selectable<DB[TB]>[]> {
    if (request.ids?.length === 0 || request.limit < 1) return [];
    this.requireOwner(request.owner);
    const leased: unknown[] =
      request.ids === undefined && request.set === undefined
        ? await this.plainLease.execute(this.db, {
            now: request.now,
            leaseUntil: request.leaseUntil,
            limit: request.limit,
            owner: request.owner ?? "",
          })
        : await this.leaseQuery(this.db, request).execute();
    return leased as Selectable<DB[TB]>[];
  }

  private leaseQuery(db: Kysely<any>, request: LeaseRequest<DB, TB>) {
    const { spec } = this;
    // The candidates are chosen in a CTE materialised once, so the LIMIT holds whatever plan
    // the UPDATE gets (an IN-subquery may be evaluated again and lease more).
    return db
      .with(
        (cte) => cte("leasable").materialized(),
        (qb) => {
          let candidates = qb
            .selectFrom(spec.table)
            .select("id")
            .where((eb: ExpressionBuilder<any, any>) => this.due(eb, request.now));
          if (request.ids) candidates = candidates.where("id", "in", request.ids);
          for (const column of spec.orderBy) candidates = candidates.orderBy(column);
          return candidates.limit(request.limit).forUpdate().skipLocked();
        },
      )
      .updateTable(spec.table)
      .set((eb: ExpressionBuilder<any, any>) => ({
        ...request.set,
        lease_until: request.leaseUntil,
        ...(spec.owner ? { [spec.owner]: request.owner } : {}),
        ...(spec.attempts ? { [spec.attempts]: eb(spec.attempts, "+", 1) } : {}),
      }))
      .where("id", "in", (eb: ExpressionBuilder<any, any>) => eb.selectFrom("leasable").select("id"))
      .returningAll();
  }

  /** Moves the lease on (a heartbeat), with any other changes; false when the row is no longer held. */
  async extend(ref: LeaseRef, leaseUntil: Date, changes?: UpdateObject<DB, TB>): Promise<boolean> {
    return (await this.updateHeld([ref], { ...changes, lease_until: leaseUntil })) === 1;
  }

  /**
   * Ends the leases (the work is done, whatever the outcome) with the given changes; returns
   * how many rows were still held. `where` narrows the guard further (e.g. the status read).
   */
  complete(
    refs: LeaseRef | readonly LeaseRef[],
    changes: Changes<DB, TB>,
    options: { where?: Condition<DB, TB>; executor?: Kysely<DB> | Transaction<DB> } = {},
  ): Promise<number> {
    return this.updateHeld(
      Array.isArray(refs) ? refs : [refs as LeaseRef],
      (eb) => ({ ...resolve(changes, eb), ...this.unleased() }),
      options.executor,
      options.where,
    );
  }

  /** Like complete, for one row, returning it as changed (undefined when it was no longer held). */
  async completeReturning(
    ref: LeaseRef,
    changes: Changes<DB, TB>,
    options: { where?: Condition<DB, TB>; executor?: Kysely<DB> | Transaction<DB> } = {},
  ): Promise<Selectable<DB[TB]> | undefined> {
    const row = await this.heldUpdate(
      [ref],
      (eb) => ({ ...resolve(changes, eb), ...this.unleased() }),
      options.executor,
      options.where,
    )
      .returningAll()
      .executeTakeFirst();
    return row as Selectable<DB[TB]> | undefined;
  }

  /** Ends the lease and makes the row due again at `retryAt`; false when it was no longer held. */
  async retry(ref: LeaseRef, retryAt: Date, changes?: UpdateObject<DB, TB>): Promise<boolean> {
    const column = this.spec.retryAt;
    if (!column) throw new Error(`the ${this.spec.table} queue has no retry column`);
    const updated = await this.updateHeld([ref], { ...changes, ...this.unleased(), [column]: retryAt });
    return updated === 1;
  }

  /** Hands leases back unused (a graceful stop, a batch cut short): the attempt does not count. */
  release(refs: LeaseRef | readonly LeaseRef[], changes?: UpdateObject<DB, TB>): Promise<number> {
    const attempts = this.spec.attempts;
    return this.updateHeld(Array.isArray(refs) ? refs : [refs as LeaseRef], (eb) => ({
      ...changes,
      ...this.unleased(),
      ...(attempts ? { [attempts]: eb(attempts, "-", 1) } : {}),
    }));
  }

  /**
   * Takes back the held rows whose lease ran out (their worker stopped or died), applying
   * `changes` (e.g. back to waiting); `where` picks some of them. Returns how many. Only for
   * tables whose lease changes the row (`held`): elsewhere an expired lease is simply free.
   */
  async takeOverExpired(
    now: Date,
    changes: UpdateObject<DB, TB>,
    where?: Condition<DB, TB>,
  ): Promise<number> {
    const held = this.spec.held;
    if (!held) throw new Error(`the ${this.spec.table} queue frees expired leases by itself`);
    const narrow = where as ((eb: ExpressionBuilder<any, any>) => Expression<SqlBool>) | undefined;
    const result = await this.db
      .updateTable(this.spec.table)
      .set({ ...changes, ...this.unleased() })
      .where((eb: ExpressionBuilder<any, any>) =>
        eb.and([held(eb), eb("lease_until", "<=", now), ...(narrow ? [narrow(eb)] : [])]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** When the earliest waiting row falls due (its dueAt), for the worker's sleep. */
  async nextDueAt(): Promise<Date | undefined> {
    const column = this.spec.dueAt;
    if (!column) throw new Error(`the ${this.spec.table} queue has no due column`);
    return this.earliest(column, this.spec.waiting);
  }

  /** When the earliest lease runs out (for `held` tables, of a held row; else of a waiting one). */
  nextLeaseExpiry(): Promise<Date | undefined> {
    return this.earliest("lease_until", this.spec.held ?? this.spec.waiting);
  }

  private async earliest(
    column: string,
    where: (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>,
  ): Promise<Date | undefined> {
    const row = await this.db
      .selectFrom(this.spec.table)
      .select((eb: ExpressionBuilder<any, any>) => eb.fn.min(column).as("earliest"))
      .where((eb: ExpressionBuilder<any, any>) => where(eb))
      .executeTakeFirst();
    const earliest = row?.earliest as Date | string | null | undefined;
    return earliest ? new Date(earliest) : undefined;
  }

  private due(eb: ExpressionBuilder<any, any>, now: Date): Expression<SqlBool> {
    const { spec } = this;
    return eb.and([
      spec.waiting(eb),
      ...(spec.dueAt ? [eb(spec.dueAt, "<=", now)] : []),
      eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]),
    ]);
  }

  private unleased(): Record<string, null> {
    return { lease_until: null, ...(this.spec.owner ? { [this.spec.owner]: null } : {}) };
  }

  private requireOwner(owner: string | undefined): void {
    if (this.spec.owner && owner === undefined)
      throw new Error(`the ${this.spec.table} queue needs the leasing worker's id`);
  }

  /** Applies changes to the rows still held by the refs' owners; returns how many. */
  private async updateHeld(
    refs: readonly LeaseRef[],
    changes: RawChanges,
    executor?: Kysely<DB> | Transaction<DB>,
    where?: Condition<DB, TB>,
  ): Promise<number> {
    if (refs.length === 0) return 0;
    const result = await this.heldUpdate(refs, changes, executor, where).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  private heldUpdate(
    refs: readonly LeaseRef[],
    changes: RawChanges,
    executor?: Kysely<DB> | Transaction<DB>,
    where?: Condition<DB, TB>,
  ) {
    const narrow = where as ((eb: ExpressionBuilder<any, any>) => Expression<SqlBool>) | undefined;
    const { spec } = this;
    const owners = new Set(refs.map((ref) => ref.owner));
    if (owners.size !== 1) throw new Error("one call changes the leases of one owner");
    const [owner] = owners;
    this.requireOwner(owner);
    const db = (executor ?? this.db) as Kysely<any>;
    return db
      .updateTable(spec.table)
      .set((eb: ExpressionBuilder<any, any>) => resolve(changes, eb))
      .where(
        "id",
        "in",
        refs.map((ref) => ref.id),
      )
      .where((eb: ExpressionBuilder<any, any>) =>
        eb.and([
          ...(spec.owner ? [eb(spec.owner, "=", owner!)] : []),
          ...(spec.held ? [spec.held(eb)] : []),
          ...(narrow ? [narrow(eb)] : []),
        ]),
      );
  }
}

function resolve<DB, TB extends keyof DB & string>(
  changes: Changes<DB, TB> | RawChanges,
  eb: ExpressionBuilder<any, any>,
): Record<string, unknown> {
  return typeof changes === "function"
    ? (changes as (eb: ExpressionBuilder<any, any>) => Record<string, unknown>)(eb)
    : (changes as Record<string, unknown>);
}
