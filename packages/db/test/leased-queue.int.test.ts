import { type TestDatabase, createTestDatabase, postgresAvailable, requireInfra } from "@petri/testkit";
import { type Generated, type Kysely, sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase } from "../src/create-database.js";
import type { Database } from "../src/database.js";
import { LeasedQueue, type LeasedQueueTable } from "../src/leased-queue.js";

interface JobsTable {
  id: string;
  seq: number;
  status: string;
  due_at: Date;
  attempts: Generated<number>;
  lease_owner: string | null;
  lease_until: Date | null;
  note: string | null;
}
interface QueueDb {
  jobs: JobsTable;
}

/** A queue whose rows wait until due, with owners, attempts and a retry column. */
const JOBS: LeasedQueueTable<QueueDb, "jobs"> = {
  table: "jobs",
  waiting: (eb) => eb("status", "=", "pending"),
  dueAt: "due_at",
  orderBy: ["due_at", "seq"],
  owner: "lease_owner",
  attempts: "attempts",
  retryAt: "due_at",
};

/** A queue whose lease changes the row (pending -> running) and whose lost leases are taken back. */
const RUNS: LeasedQueueTable<QueueDb, "jobs"> = {
  table: "jobs",
  waiting: (eb) => eb("status", "=", "pending"),
  orderBy: ["seq"],
  owner: "lease_owner",
  attempts: "attempts",
  held: (eb) => eb("status", "=", "running"),
};

/** An anonymous queue (no owner column) whose retries keep the row held until due. */
const ANONYMOUS: LeasedQueueTable<QueueDb, "jobs"> = {
  table: "jobs",
  waiting: (eb) => eb("status", "=", "pending"),
  orderBy: ["seq"],
  attempts: "attempts",
  retryAt: "lease_until",
};

const T0 = new Date("2030-01-01T00:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

const pgUp = requireInfra("PostgreSQL", await postgresAvailable());

describe.skipIf(!pgUp)("LeasedQueue on PostgreSQL", () => {
  let testDb: TestDatabase;
  let database: Database;
  let db: Kysely<QueueDb>;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await createDatabase({ driver: "pg", url: testDb.url, poolMax: 8 });
    db = database.root as Kysely<QueueDb>;
    await sql`create table jobs (
      id text primary key,
      seq int not null,
      status text not null,
      due_at timestamptz not null,
      attempts int not null default 0,
      lease_owner text,
      lease_until timestamptz,
      note text
    )`.execute(db);
  });
  afterAll(async () => {
    await database?.destroy();
    await testDb?.drop();
  });
  beforeEach(async () => {
    await db.deleteFrom("jobs").execute();
  });

  async function insert(count: number, due: (i: number) => Date = () => T0): Promise<string[]> {
    const rows = Array.from({ length: count }, (_, i) => ({
      id: `job_${String(i).padStart(4, "0")}`,
      seq: i,
      status: "pending",
      due_at: due(i),
    }));
    await db.insertInto("jobs").values(rows).execute();
    return rows.map((row) => row.id);
  }

  const row = (id: string) =>
    db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

  it("leases due, free rows in order up to the limit, for the owner, counting the attempt", async () => {
    const [a, b, c, d] = await insert(4, (i) => at([20, 10, 30, 5_000][i]!));
    const leased = await new LeasedQueue(db, JOBS).lease({
      now: at(1_000),
      leaseUntil: at(61_000),
      limit: 2,
      owner: "w1",
    });
    expect(ids(leased)).toEqual([a, b]);
    expect(leased.every((r) => r.lease_owner === "w1" && r.attempts === 1)).toBe(true);
    expect(leased[0]!.lease_until).toEqual(at(61_000));
    // c is due but was past the limit; d is not due yet.
    const rest = await new LeasedQueue(db, JOBS).lease({
      now: at(1_000),
      leaseUntil: at(61_000),
      limit: 10,
      owner: "w2",
    });
    expect(ids(rest)).toEqual([c]);
    expect((await row(d!)).lease_owner).toBeNull();
  });

  it("leases only the given ids that are still due and free", async () => {
    const [a, b, c] = await insert(3);
    const queue = new LeasedQueue(db, JOBS);
    await queue.lease({ now: T0, leaseUntil: at(60_000), limit: 1, owner: "w1", ids: [a!] });
    const leased = await queue.lease({
      now: T0,
      leaseUntil: at(60_000),
      limit: 10,
      owner: "w2",
      ids: [a!, c!],
    });
    expect(ids(leased)).toEqual([c]);
    expect((await row(b!)).lease_owner).toBeNull();
    expect(await queue.lease({ now: T0, leaseUntil: at(1), limit: 10, owner: "w2", ids: [] })).toEqual([]);
  });

  it("two workers leasing at once never take the same row, and between them take every row", async () => {
    const all = await insert(300);
    const worker = async (owner: string) => {
      const queue = new LeasedQueue(db, JOBS);
      const mine: string[] = [];
      for (;;) {
        const batch = await queue.lease({ now: T0, leaseUntil: at(60_000), limit: 7, owner });
        if (batch.length === 0) return mine;
        mine.push(...batch.map((r) => r.id));
      }
    };
    const [first, second] = await Promise.all([worker("w1"), worker("w2")]);
    expect(first!.filter((id) => second!.includes(id))).toEqual([]);
    expect([...first!, ...second!].sort()).toEqual(all);
    const attempts = await db.selectFrom("jobs").select("attempts").distinct().execute();
    expect(attempts).toEqual([{ attempts: 1 }]);
  });

  it("skips a row another transaction is leasing instead of waiting for it", async () => {
    const [a, b] = await insert(2);
    await db.transaction().execute(async (trx) => {
      await trx.selectFrom("jobs").select("id").where("id", "=", a!).forUpdate().execute();
      const leased = await new LeasedQueue(db, JOBS).lease({
        now: T0,
        leaseUntil: at(60_000),
        limit: 10,
        owner: "w2",
      });
      expect(ids(leased)).toEqual([b]);
    });
  });

  it("takes over a lease once it expired, and the old owner's writes then change nothing", async () => {
    const [a] = await insert(1);
    const queue = new LeasedQueue(db, JOBS);
    await queue.lease({ now: T0, leaseUntil: at(30_000), limit: 1, owner: "w1" });
    expect(await queue.lease({ now: at(29_999), leaseUntil: at(90_000), limit: 1, owner: "w2" })).toEqual([]);
    const taken = await queue.lease({ now: at(30_000), leaseUntil: at(90_000), limit: 1, owner: "w2" });
    expect(taken.map((r) => [r.id, r.lease_owner, r.attempts])).toEqual([[a, "w2", 2]]);
    expect(await queue.extend({ id: a!, owner: "w1" }, at(120_000))).toBe(false);
    expect(await queue.complete({ id: a!, owner: "w1" }, { status: "done" })).toBe(0);
    expect(await queue.extend({ id: a!, owner: "w2" }, at(120_000), { note: "half way" })).toBe(true);
    expect(await row(a!)).toMatchObject({ lease_owner: "w2", lease_until: at(120_000), note: "half way" });
    expect(await queue.complete({ id: a!, owner: "w2" }, { status: "done" })).toBe(1);
    expect(await row(a!)).toMatchObject({ status: "done", lease_owner: null, lease_until: null });
  });

  it("complete honours an extra guard and runs in the caller's transaction", async () => {
    const [a] = await insert(1);
    const queue = new LeasedQueue(db, JOBS);
    await queue.lease({ now: T0, leaseUntil: at(30_000), limit: 1, owner: "w1" });
    const ref = { id: a!, owner: "w1" };
    expect(await queue.complete(ref, { status: "done" }, { where: (eb) => eb("status", "=", "other") })).toBe(
      0,
    );
    await expect(
      db.transaction().execute(async (trx) => {
        expect(await queue.complete(ref, { status: "done" }, { executor: trx })).toBe(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await row(a!)).toMatchObject({ status: "pending", lease_owner: "w1" });
  });

  it("a retry frees the row and makes it due at the retry time; a release does not count the attempt", async () => {
    const [a, b] = await insert(2);
    const queue = new LeasedQueue(db, JOBS);
    await queue.lease({ now: T0, leaseUntil: at(30_000), limit: 2, owner: "w1" });
    expect(await queue.retry({ id: a!, owner: "w1" }, at(5_000), { note: "receiver down" })).toBe(true);
    expect(await row(a!)).toMatchObject({
      due_at: at(5_000),
      lease_owner: null,
      lease_until: null,
      attempts: 1,
    });
    expect(await queue.release([{ id: b!, owner: "w1" }])).toBe(1);
    expect(await row(b!)).toMatchObject({ lease_owner: null, lease_until: null, attempts: 0 });
    expect(await queue.nextDueAt()).toEqual(T0);
    expect(ids(await queue.lease({ now: at(4_999), leaseUntil: at(9_000), limit: 5, owner: "w2" }))).toEqual([
      b,
    ]);
    expect(ids(await queue.lease({ now: at(5_000), leaseUntil: at(9_000), limit: 5, owner: "w2" }))).toEqual([
      a,
    ]);
  });

  it("an anonymous queue retries by keeping the row held until its retry time", async () => {
    const [a, b] = await insert(2);
    const queue = new LeasedQueue(db, ANONYMOUS);
    expect(await queue.lease({ now: T0, leaseUntil: at(30_000), limit: 5 })).toHaveLength(2);
    expect(await queue.retry({ id: a! }, at(1_000), { note: "bus down" })).toBe(true);
    expect(await queue.release({ id: b! })).toBe(1);
    expect(await queue.nextLeaseExpiry()).toEqual(at(1_000));
    expect(ids(await queue.lease({ now: at(999), leaseUntil: at(30_000), limit: 5 }))).toEqual([b]);
    const retried = await queue.lease({ now: at(1_000), leaseUntil: at(30_000), limit: 5 });
    expect(retried.map((r) => [r.id, r.attempts, r.note])).toEqual([[a, 2, "bus down"]]);
    expect(await queue.complete([{ id: a! }, { id: b! }], { status: "sent" })).toBe(2);
    expect(await queue.lease({ now: at(99_000), leaseUntil: at(130_000), limit: 5 })).toEqual([]);
  });

  it("a lease that changes the row: expired leases are taken back, the held guard protects writes", async () => {
    const [a, b, c] = await insert(3);
    const queue = new LeasedQueue(db, RUNS);
    const leased = await queue.lease({
      now: T0,
      leaseUntil: at(30_000),
      limit: 3,
      owner: "w1",
      set: { status: "running" },
    });
    expect(leased.every((r) => r.status === "running")).toBe(true);
    await db.updateTable("jobs").set({ attempts: 3 }).where("id", "=", c!).execute();
    expect(await queue.nextLeaseExpiry()).toEqual(at(30_000));
    expect(await queue.extend({ id: b!, owner: "w1" }, at(60_000))).toBe(true);
    expect(await queue.takeOverExpired(at(29_999), { status: "pending" })).toBe(0);
    const failed = await queue.takeOverExpired(at(30_000), { status: "failed" }, (eb) =>
      eb("attempts", ">=", 3),
    );
    const requeued = await queue.takeOverExpired(at(30_000), { status: "pending" });
    expect([requeued, failed]).toEqual([1, 1]);
    expect(await row(a!)).toMatchObject({ status: "pending", lease_owner: null, lease_until: null });
    expect(await row(c!)).toMatchObject({ status: "failed", lease_owner: null });
    // a is no longer running: its old owner's completion is refused; b is still held.
    expect(await queue.complete({ id: a!, owner: "w1" }, { status: "done" })).toBe(0);
    expect(await queue.release({ id: b!, owner: "w1" }, { status: "pending" })).toBe(1);
    expect(await row(b!)).toMatchObject({ status: "pending", attempts: 0, lease_owner: null });
  });

  it("refuses a lease without an owner on a table that names one", async () => {
    await insert(1);
    await expect(new LeasedQueue(db, JOBS).lease({ now: T0, leaseUntil: at(1), limit: 1 })).rejects.toThrow(
      /leasing worker/,
    );
  });
});
