import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadLedger, recordPosting, recordPostings } from "../src/db/ledger-repository.js";
import { balances, conservation } from "../src/db/ledger-audit.js";
import type { MarketplaceDb } from "../src/db/schema.js";
import {
  type CancellableStatus,
  type DisputeOutcome,
  LedgerError,
  escrowAccount,
  holdAdjustmentPosting,
  holdPosting,
  operatorPayableAccount,
  postingsForApproval,
  postingsForCancellation,
  postingsForDisputeResolution,
  postingsForOpened,
  refundPosting,
  releasePosting,
} from "../src/domain/ledger/index.js";
import { ENGINES, LedgerBackend } from "./support/ledger-db.js";
import { expectHeldCentsAccountedFor } from "./support/ledger-checks.js";

const now = new Date("2026-12-08T10:00:00.000Z");
let counter = 0;
const nextExperiment = () => `exp_${(counter += 1)}_${Math.random().toString(36).slice(2, 8)}`;

async function ledgerError(promise: Promise<unknown>): Promise<LedgerError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LedgerError) return error;
    throw error;
  }
  throw new Error("expected a LedgerError");
}

describe.each(ENGINES)("escrow ledger on %s", (engine) => {
  let backend: LedgerBackend;
  let db: Kysely<MarketplaceDb>;

  beforeAll(async () => {
    backend = await LedgerBackend.open(engine);
    db = backend.db;
  });
  afterAll(async () => {
    await backend?.close();
  });

  async function open(cents: number): Promise<string> {
    const id = nextExperiment();
    await recordPostings(db, postingsForOpened(id, cents), { now });
    return id;
  }

  it("replaying a posting is a no-op", async () => {
    const id = await open(10_000);
    const again = await recordPostings(db, [holdPosting(id, 10_000)], { now });
    expect(again).toEqual([{ postingId: expect.any(String), recorded: false }]);
    const release = postingsForApproval(await loadLedger(db, id), "op_1");
    const first = await recordPostings(db, release, { now });
    const replay = await recordPostings(db, postingsForApproval(await loadLedger(db, id), "op_1"), { now });
    expect(first[0]?.recorded).toBe(true);
    expect(replay).toEqual([{ postingId: first[0]?.postingId, recorded: false }]);
    const b = await balances(db, id);
    expect(b.accounts).toEqual({
      [escrowAccount(id)]: 0,
      [operatorPayableAccount("op_1")]: 10_000,
      requester_funds: -10_000,
    });
    expect(b.paymentState).toBe("released");
  });

  it("a conflicting replay errors and moves nothing", async () => {
    const id = await open(10_000);
    expect((await ledgerError(recordPostings(db, [holdPosting(id, 9_999)], { now }))).code).toBe(
      "conflicting_replay",
    );
    await recordPostings(db, [refundPosting(id, 4_000)], { now });
    expect((await ledgerError(recordPostings(db, [refundPosting(id, 4_001)], { now }))).code).toBe(
      "conflicting_replay",
    );
    const b = await balances(db, id);
    expect(b.summary).toMatchObject({ heldCents: 10_000, refundedCents: 4_000, stillHeldCents: 6_000 });
  });

  it("refuses overdrawing escrow and postings before a hold, rolling the transaction back", async () => {
    const id = await open(1_000);
    expect((await ledgerError(recordPostings(db, [releasePosting(id, "op_1", 1_001)], { now }))).code).toBe(
      "escrow_overdrawn",
    );
    // Two postings of one event: the second fails, the first is rolled back with it.
    expect(
      (
        await ledgerError(
          recordPostings(db, [refundPosting(id, 600), releasePosting(id, "op_1", 600)], { now }),
        )
      ).code,
    ).toBe("escrow_overdrawn");
    expect((await balances(db, id)).summary.stillHeldCents).toBe(1_000);
    expect((await ledgerError(recordPostings(db, [refundPosting(nextExperiment(), 1)], { now }))).code).toBe(
      "no_hold",
    );
  });

  it("concurrent duplicate postings record exactly one", async () => {
    const replicas = await Promise.all(Array.from({ length: 10 }, () => backend.replica()));
    const id = nextExperiment();
    const holds = await Promise.all(
      replicas.map((r) => recordPostings(r, [holdPosting(id, 7_777)], { now })),
    );
    expect(holds.flat().filter((r) => r.recorded)).toHaveLength(1);
    const releases = await Promise.all(
      replicas.map((r) => recordPostings(r, [releasePosting(id, "op_1", 7_777)], { now })),
    );
    expect(releases.flat().filter((r) => r.recorded)).toHaveLength(1);
    expect(new Set(releases.flat().map((r) => r.postingId)).size).toBe(1);
    // Release racing a refund of the same escrow: exactly one wins, escrow never overdrawn.
    const other = await open(5_000);
    const race = await Promise.allSettled([
      recordPostings(replicas[0]!, [releasePosting(other, "op_1", 5_000)], { now }),
      recordPostings(replicas[1]!, [refundPosting(other, 5_000)], { now }),
    ]);
    expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = race.find((r) => r.status === "rejected");
    expect((rejected?.reason as LedgerError).code).toBe("escrow_overdrawn");
    const rows = await db
      .selectFrom("ledger_postings")
      .select("kind")
      .where("experiment_id", "in", [id, other])
      .execute();
    expect(rows).toHaveLength(4);
    expect((await conservation(db)).violations).toEqual([]);
  });

  describe("conservation after every scenario", () => {
    const hold = 123_457;
    async function cancel(status: CancellableStatus) {
      const id = await open(hold);
      const r = postingsForCancellation(await loadLedger(db, id), status, "op_2");
      await recordPostings(db, r.postings, { now });
      // Replaying the cancellation changes nothing.
      await recordPostings(db, postingsForCancellation(await loadLedger(db, id), status, "op_2").postings, {
        now,
      });
      return balances(db, id);
    }
    async function resolve(outcome: DisputeOutcome, approveFirst = false) {
      const id = await open(hold);
      if (approveFirst)
        await recordPostings(db, postingsForApproval(await loadLedger(db, id), "op_3"), { now });
      await recordPostings(db, postingsForDisputeResolution(await loadLedger(db, id), "op_3", outcome), {
        now,
      });
      return balances(db, id);
    }

    it("open -> approve", async () => {
      const id = await open(hold);
      await recordPostings(db, postingsForApproval(await loadLedger(db, id), "op_1"), { now });
      expect((await balances(db, id)).summary).toMatchObject({ releasedCents: hold, stillHeldCents: 0 });
    });

    it("open / claimed / in_progress -> cancel", async () => {
      expect((await cancel("open")).summary).toMatchObject({ refundedCents: hold, compensatedCents: 0 });
      expect((await cancel("claimed")).summary).toMatchObject({
        refundedCents: hold - 24_691,
        compensatedCents: 24_691,
        stillHeldCents: 0,
      });
      expect((await cancel("in_progress")).summary).toMatchObject({
        refundedCents: 0,
        compensatedCents: hold,
      });
    });

    it("dispute: for the requester, for the operator, split, and after a release", async () => {
      expect((await resolve({ outcome: "requester" })).summary.returnedToRequesterCents).toBe(hold);
      expect((await resolve({ outcome: "operator" })).summary.paidToOperatorCents).toBe(hold);
      const split = await resolve({ outcome: "split", requesterCents: 23_457, operatorCents: 100_000 });
      expect(split.summary).toMatchObject({
        disputeToRequesterCents: 23_457,
        disputeToOperatorCents: 100_000,
      });
      const after = await resolve({ outcome: "split", requesterCents: 3_457, operatorCents: 120_000 }, true);
      expect(after.summary).toMatchObject({ clawedBackCents: 3_457, paidToOperatorCents: 120_000 });
    });

    afterAll(async () => {
      const report = await conservation(db);
      expect(report.violations).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.heldCents).toBe(
        report.returnedToRequesterCents + report.paidToOperatorCents + report.stillHeldCents,
      );
    });
  });

  it("hold adjustments are unique per version, concurrently too, and conservation counts them", async () => {
    const replicas = await Promise.all(Array.from({ length: 4 }, () => backend.replica()));
    const id = await open(10_000);
    const raise = holdAdjustmentPosting(id, 2, 2_000);
    const results = await Promise.all(replicas.map((r) => recordPostings(r, [raise], { now })));
    expect(results.flat().filter((r) => r.recorded)).toHaveLength(1);
    await recordPostings(db, [holdAdjustmentPosting(id, 3, -5_000)], { now });
    expect(
      (await ledgerError(recordPostings(db, [holdAdjustmentPosting(id, 3, -4_000)], { now }))).code,
    ).toBe("conflicting_replay");
    const ledger = await loadLedger(db, id);
    expect(ledger.postings.map((p) => [p.kind, p.key ?? ""])).toEqual([
      ["hold", ""],
      ["hold_adjustment", "v2"],
      ["hold_adjustment", "v3"],
    ]);
    await recordPostings(db, postingsForApproval(ledger, "op_1"), { now });
    expect((await balances(db, id)).summary).toMatchObject({
      heldCents: 7_000,
      releasedCents: 7_000,
      stillHeldCents: 0,
    });
    const report = await conservation(db);
    expect(report.violations).toEqual([]);
    expectHeldCentsAccountedFor(report);
  });

  it("the conservation query catches a corrupted ledger", async () => {
    const id = await open(500);
    await db.transaction().execute(async (trx) => {
      await recordPosting(trx, refundPosting(id, 200), { now });
    });
    const posting = await db
      .selectFrom("ledger_postings")
      .select("id")
      .where("experiment_id", "=", id)
      .where("kind", "=", "refund")
      .executeTakeFirstOrThrow();
    await db
      .updateTable("ledger_entries")
      .set({ amount_cents: 300 })
      .where("posting_id", "=", posting.id)
      .where("account", "=", "requester_refund")
      .execute();
    const report = await conservation(db);
    expect(report.ok).toBe(false);
    expect(report.violations.some((v) => v.includes("imbalance 100"))).toBe(true);
    await db.deleteFrom("ledger_postings").where("experiment_id", "=", id).execute();
    expect((await conservation(db)).ok).toBe(true);
  });
});
