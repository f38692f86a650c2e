/**
 * Authorization where the data is (BOLA): a requester sees and acts only on their own
 * experiments; another account's experiment is 404 (never 403) for read, patch, cancel and
 * submit; staff see every experiment. Listing with cursors through 45 experiments: no
 * duplicate, no gap, the right total, filters and page bounds.
 */
import { Code } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { ENGINES, bodies, failure, json, jump, requester, staff, experimentsOn } from "./support/harness.js";

describe.each(ENGINES)("experiment access and listing on %s", (engine) => {
  const exp = experimentsOn(engine);

  it("another requester gets not_found for get, update, cancel and submit; the owner is unaffected", async () => {
    const alice = requester("alice");
    const bob = requester("bob");
    const { experiment } = await exp.as(alice).createExperiment({ requestJson: json(bodies.open()) });
    const { experiment: draft } = await exp
      .as(alice)
      .createExperiment({ requestJson: json(bodies.open()), saveAsDraft: true });
    const id = experiment!.id;
    const calls = [
      () => exp.as(bob).getExperiment({ experimentId: id }),
      () =>
        exp
          .as(bob)
          .updateExperiment({ experimentId: id, patchJson: json({ turnaround_priority: "urgent" }) }),
      () => exp.as(bob).cancelExperiment({ experimentId: id, reason: "mine now" }),
      () => exp.as(bob).submitDraft({ experimentId: draft!.id }),
      () => exp.as(bob).acceptProtocolProposal({ experimentId: id }),
      () => exp.as(bob).requestProtocolChanges({ experimentId: id, comments: "x" }),
    ];
    for (const call of calls) {
      const refused = await failure(call());
      expect(refused.code).toBe(Code.NotFound);
      expect(refused.reason).toBe("not_found");
    }
    // Exactly like an id that does not exist.
    const missing = await failure(
      exp.as(bob).getExperiment({ experimentId: "exp_0000000000aaaaaaaaaaaaaaaa" }),
    );
    expect(missing.code).toBe(Code.NotFound);
    expect((await failure(exp.as(bob).getExperiment({ experimentId: "../etc" }))).code).toBe(Code.NotFound);

    const mine = await exp.as(alice).getExperiment({ experimentId: id });
    expect(mine.experiment).toMatchObject({ id, status: ExperimentStatus.OPEN, version: 1n });
    expect((await exp.as(bob).listExperiments({})).experiments.map((e) => e.id)).not.toContain(id);
  });

  it("staff see any experiment and list everyone's, but do not act as the requester", async () => {
    const alice = requester("alice");
    const admin = staff();
    const { experiment } = await exp.as(alice).createExperiment({ requestJson: json(bodies.open()) });
    expect((await exp.as(admin).getExperiment({ experimentId: experiment!.id })).experiment!.id).toBe(
      experiment!.id,
    );
    const all = await exp.as(admin).listExperiments({ limit: 100 });
    expect(all.experiments.map((e) => e.id)).toContain(experiment!.id);
    const refused = await failure(
      exp.as(admin).cancelExperiment({ experimentId: experiment!.id, reason: "staff" }),
    );
    expect(refused.code).toBe(Code.PermissionDenied);
  });

  it("pages through 45 experiments with cursors: newest first, no duplicate, no gap, total right", async () => {
    const me = requester("pager");
    const created: string[] = [];
    for (let i = 0; i < 45; i++) {
      // Every third experiment shares its creation time with the previous ones: ids break the tie.
      if (i % 3 === 0) await jump(exp, 1_000);
      const body = i % 5 === 0 ? bodies.custom() : bodies.open();
      created.push((await exp.as(me).createExperiment({ requestJson: json(body) })).experiment!.id);
    }
    // Someone else's experiments never show up in my pages.
    await exp.as(requester("noise")).createExperiment({ requestJson: json(bodies.open()) });

    const seen: string[] = [];
    let cursor = "";
    let pages = 0;
    for (;;) {
      const page = await exp.as(me).listExperiments({ limit: 10, cursor, includeTotal: true });
      pages += 1;
      expect(page.total).toBe(45n);
      seen.push(...page.experiments.map((e) => e.id));
      expect(page.hasMore).toBe(page.nextCursor !== "");
      if (!page.hasMore) break;
      cursor = page.nextCursor;
    }
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(45);
    const rows = await exp.db
      .selectFrom("experiments")
      .select(["id"])
      .where("requester_account_id", "=", me.accountId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute();
    expect(seen).toEqual(rows.map((r) => r.id));
    expect([...seen].sort()).toEqual([...created].sort());

    // Default page size and status filter.
    const first = await exp.as(me).listExperiments({});
    expect(first.experiments).toHaveLength(20);
    // The total is counted only when asked for; a first page holding every match knows it.
    expect(first).toMatchObject({ total: 0n, hasTotal: false, hasMore: true });
    const reviewing = await exp
      .as(me)
      .listExperiments({ status: ExperimentStatus.PENDING_REVIEW, limit: 100 });
    expect(reviewing).toMatchObject({ total: 9n, hasTotal: true, hasMore: false });
    expect(reviewing.experiments.every((e) => e.status === ExperimentStatus.PENDING_REVIEW)).toBe(true);

    // Time window (exclusive bounds): the experiments created strictly between two of them.
    const all = (await exp.as(me).listExperiments({ limit: 100 })).experiments;
    const newest = all[0]!.createdAt!;
    const oldest = all.at(-1)!.createdAt!;
    const inside = await exp
      .as(me)
      .listExperiments({ createdAfter: oldest, createdBefore: newest, limit: 100 });
    expect(inside.total).toBe(BigInt(45 - 3 - 3));
    const after = await exp.as(me).listExperiments({
      createdAfter: timestampFromDate(new Date(Number(newest.seconds) * 1000 - 1)),
      limit: 1,
      includeTotal: true,
    });
    expect(after).toMatchObject({ total: 3n, hasTotal: true, hasMore: true });
  });

  it("refuses a bad limit, cursor, status or time range with 422", async () => {
    const me = requester();
    const requests = [
      { limit: 101 },
      { limit: -1 },
      { cursor: "garbage!" },
      { status: 99 as ExperimentStatus },
    ];
    for (const request of requests) {
      const refused = await failure(exp.as(me).listExperiments(request));
      expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: "validation_failed" });
    }
    const t = timestampFromDate(new Date("2026-01-01T00:00:00Z"));
    const empty = await failure(exp.as(me).listExperiments({ createdAfter: t, createdBefore: t }));
    expect(empty.violations).toEqual([expect.objectContaining({ field: "created_before" })]);
  });
});
