/**
 * The response reads (one experiment, a page of a list, the review queue) run as fixed
 * queries compiled once: they must return what a query built per call with the same values
 * returns, for varied filters, pages and requesters (a requester's filter bound in the wrong
 * place would show another requester's experiments).
 */
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { type ExperimentView, findView, requestText } from "../src/db/experiment-records.js";
import { type ExperimentFilter, listExperiments, listReviewQueue } from "../src/db/experiment-pages.js";
import { findExperiment } from "../src/db/experiments.js";
import type { ExperimentRow } from "../src/db/schema.js";
import { ENGINES, bodies, json, jump, requester, staff, experimentsOn } from "./support/harness.js";

/** The view's fields must be the row's. */
function expectViewOf(view: ExperimentView, row: ExperimentRow) {
  const { issues, dispute, ...columns } = view;
  expect(issues).toEqual([]);
  expect(dispute).toBeNull();
  for (const [column, value] of Object.entries(columns))
    expect({ column, value }).toEqual({ column, value: row[column as keyof ExperimentRow] });
}

describe.each(ENGINES)("experiment views on %s", (engine) => {
  const exp = experimentsOn(engine);
  const alice = requester("alice");
  const bob = requester("bob");
  const created: { at: Date; owner: string }[] = [];

  beforeAll(async () => {
    const plan: [typeof alice, "open" | "draft" | "custom"][] = [
      [alice, "open"],
      [bob, "open"],
      [alice, "draft"],
      [alice, "custom"],
      [bob, "draft"],
      [alice, "open"],
      [bob, "custom"],
      [alice, "open"],
      [bob, "open"],
      [alice, "draft"],
    ];
    for (const [owner, kind] of plan) {
      await exp.as(owner).createExperiment({
        requestJson: json(kind === "custom" ? bodies.custom() : bodies.open()),
        saveAsDraft: kind === "draft",
      });
      created.push({ at: exp.clock.now(), owner: owner.accountId });
      await jump(exp, 60_000);
    }
  });

  /** The same list, built per call from every column. */
  async function reference(filter: ExperimentFilter, limit: number, after?: { at: Date; id: string }) {
    let query = exp.db.selectFrom("experiments").selectAll().select(requestText);
    if (filter.requesterAccountId !== undefined)
      query = query.where("requester_account_id", "=", filter.requesterAccountId);
    if (filter.status !== undefined) query = query.where("status", "=", filter.status);
    if (filter.createdAfter !== undefined) query = query.where("created_at", ">", filter.createdAfter);
    if (filter.createdBefore !== undefined) query = query.where("created_at", "<", filter.createdBefore);
    if (after)
      query = query.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(after.at, after.id)));
    return query
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit + 1)
      .execute();
  }

  it("a page of the list is what the query built per call returns, for every filter and page", async () => {
    const middle = created[4]!.at;
    const filters: ExperimentFilter[] = [];
    for (const requesterAccountId of [alice.accountId, bob.accountId, undefined, "usr_nobody"])
      for (const status of [undefined, "open", "draft", "pending_review"] as const)
        for (const range of [
          {},
          { createdAfter: middle },
          { createdBefore: middle },
          { createdAfter: created[1]!.at, createdBefore: created[8]!.at },
        ])
          filters.push({ requesterAccountId, status, ...range });
    let compared = 0;
    for (const filter of filters)
      for (const limit of [1, 3, 100]) {
        // Walk every page: the cursor is the last row of the page before.
        let after: { at: Date; id: string } | undefined;
        for (let page = 0; page < 12; page += 1) {
          const expected = await reference(filter, limit, after);
          const actual = await listExperiments(exp.db, filter, { limit, after, countTotal: false });
          expect(actual.hasMore).toBe(expected.length > limit);
          expect(actual.records.map((view) => view.id)).toEqual(
            expected.slice(0, limit).map((row) => row.id),
          );
          actual.records.forEach((view, i) => expectViewOf(view, expected[i]!));
          if (filter.requesterAccountId !== undefined)
            for (const view of actual.records)
              expect(view.requester_account_id).toBe(filter.requesterAccountId);
          compared += actual.records.length;
          const last = actual.records.at(-1);
          if (!actual.hasMore || !last) break;
          after = { at: last.created_at, id: last.id };
        }
      }
    expect(compared).toBeGreaterThan(100);
  });

  it("one experiment is what the row read per call holds", async () => {
    const rows = await exp.db.selectFrom("experiments").selectAll().execute();
    expect(rows).toHaveLength(10);
    for (const row of rows)
      expectViewOf((await findView(exp.db, row.id))!, (await findExperiment(exp.db, row.id))!);
    expect(await findView(exp.db, "exp_00000000000000000000000000")).toBeUndefined();
    expect(await findView(exp.db, "not an id")).toBeUndefined();
  });

  it("the review queue is what the query built per call returns, page after page", async () => {
    const expected = await exp.db
      .selectFrom("experiments")
      .selectAll()
      .select(requestText)
      .where("status", "=", "pending_review")
      .orderBy("submitted_at", "asc")
      .orderBy("id", "asc")
      .execute();
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const seen: string[] = [];
    let after: { at: Date; id: string } | undefined;
    for (let page = 0; page < 10; page += 1) {
      const { records, hasMore } = await listReviewQueue(exp.db, { limit: 1, after, countTotal: false });
      records.forEach((view) => expectViewOf(view, expected[seen.length + 0]!));
      seen.push(...records.map((view) => view.id));
      const last = records.at(-1);
      if (!hasMore || !last?.submitted_at) break;
      after = { at: last.submitted_at, id: last.id };
    }
    expect(seen).toEqual(expected.map((row) => row.id));
    // Staff read through the same use cases: everything listed is visible to them.
    const { experiments } = await exp.as(staff()).listReviewQueue({ limit: 100 });
    expect(experiments.map((e) => e.id)).toEqual(seen);
  });

  it("an experiment's latest dispute is read through its own index, not by scanning every dispute", async () => {
    // The view's dispute subquery, planned with sequential scans ruled out: an index that only
    // orders by time (disputes_created_idx) would still be usable, so the plan must name ours.
    const plan = await exp.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const rows = await trx
        .selectFrom("disputes")
        .select("id")
        .where("experiment_id", "=", "exp_00000000000000000000000000")
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(1)
        .explain();
      return rows.map((row) => Object.values(row).join(" ")).join("\n");
    });
    expect(plan).toContain("disputes_experiment_latest_idx");
  });
});
