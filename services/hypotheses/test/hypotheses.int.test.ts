/**
 * The hypothesis library end to end through the RPCs: saving manual and engine-sourced
 * hypotheses, the owner-only reads (another account's is NOT_FOUND), the filtered and
 * searched listing with ARCHIVED hidden, PATCH in DRAFT only, and the idempotent soft
 * delete. PostgreSQL and PGlite.
 */
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { ENGINES, type Hypotheses, failure, hypothesesOfBlock, requester, staff } from "./support/harness.js";

const MANUAL = {
  title: "Drug X lowers GENE1",
  statement: "Drug X at 10 uM lowers GENE1 expression in HeLa cells within 24 h.",
};

describe.each(ENGINES)("hypotheses on %s", (engine) => {
  let h: Hypotheses;
  hypothesesOfBlock(engine, (started) => (h = started));

  it("saves an engine-sourced hypothesis in DRAFT and reads it back whole", async () => {
    const owner = requester();
    const intakeDraft = {
      experiment_type: "QPCR_EXPRESSION",
      hypothesis: { statement: "s" },
      budget_usd: 900,
    };
    const engineResponse = {
      hypothesis: { statement: "s", null_hypothesis: "n" },
      sources: [{ doi: "10.1/x" }],
    };
    const { hypothesis } = await h.as(owner).createHypothesis({
      ...MANUAL,
      nullHypothesis: "Drug X does not change GENE1 expression.",
      experimentType: "QPCR_EXPRESSION",
      intakeDraftJson: JSON.stringify(intakeDraft),
      engineAgent: "hypothesis_generation",
      engineQuery: "what lowers GENE1?",
      engineResponseJson: JSON.stringify(engineResponse),
    });
    expect(hypothesis).toMatchObject({
      id: expect.stringMatching(/^hyp_/),
      ownerAccountId: owner.accountId,
      title: MANUAL.title,
      status: "DRAFT",
      experimentsCount: 0,
      experimentType: "QPCR_EXPRESSION",
      engineAgent: "hypothesis_generation",
      engineQuery: "what lowers GENE1?",
      version: 1n,
    });
    const { hypothesis: read } = await h.as(owner).getHypothesis({ hypothesisId: hypothesis!.id });
    expect(read).toEqual(hypothesis);
    expect(JSON.parse(read!.intakeDraftJson)).toEqual(intakeDraft);
    expect(JSON.parse(read!.engineResponseJson)).toEqual(engineResponse);
  });

  it("refuses NUL in any field and in the intake draft's JSON, and a deeply nested draft, storing nothing", async () => {
    const owner = requester();
    // (A lone surrogate cannot cross binary protobuf: UTF-8 encoding replaces it with U+FFFD.)
    expect(
      await failure(h.as(owner).createHypothesis({ title: "a\u0000b", statement: "s\u0000" })),
    ).toMatchObject({
      code: Code.InvalidArgument,
      reason: "validation_failed",
      violations: [{ field: "title" }, { field: "statement" }],
    });
    expect(
      await failure(
        h.as(owner).createHypothesis({
          ...MANUAL,
          intakeDraftJson: `{"a":${"[".repeat(4_000)}${"]".repeat(4_000)}}`,
        }),
      ),
    ).toMatchObject({
      code: Code.InvalidArgument,
      violations: [{ field: "intake_draft", code: "too_deep" }],
    });
    expect(
      await failure(h.as(owner).createHypothesis({ ...MANUAL, intakeDraftJson: '{"t":"x\\u0000"}' })),
    ).toMatchObject({ code: Code.InvalidArgument, violations: [{ field: "intake_draft.t" }] });
    expect((await h.as(owner).listHypotheses({})).total).toBe(0n);
  });

  it("names every invalid field, and stores nothing", async () => {
    const owner = requester();
    expect(
      await failure(
        h.as(owner).createHypothesis({
          title: "",
          statement: MANUAL.statement,
          experimentType: "PCR",
          intakeDraftJson: "[]",
        }),
      ),
    ).toMatchObject({
      code: Code.InvalidArgument,
      reason: "validation_failed",
      violations: [
        { field: "title", code: "missing_required" },
        { field: "experiment_type", code: "invalid_value" },
        { field: "intake_draft", code: "invalid_value" },
      ],
    });
    expect((await h.as(owner).listHypotheses({})).total).toBe(0n);
  });

  it("keeps each library private: another account (staff too) gets NOT_FOUND, the system principal is refused", async () => {
    const owner = requester();
    const { hypothesis } = await h.as(owner).createHypothesis(MANUAL);
    const id = hypothesis!.id;
    for (const other of [requester("other"), staff()]) {
      expect((await failure(h.as(other).getHypothesis({ hypothesisId: id }))).code).toBe(Code.NotFound);
      expect((await failure(h.as(other).updateHypothesis({ hypothesisId: id, title: "x" }))).code).toBe(
        Code.NotFound,
      );
      expect((await failure(h.as(other).archiveHypothesis({ hypothesisId: id }))).code).toBe(Code.NotFound);
      expect((await h.as(other).listHypotheses({})).hypotheses).toEqual([]);
    }
    expect((await failure(h.as(owner).getHypothesis({ hypothesisId: "exp_nothing" }))).code).toBe(
      Code.NotFound,
    );
    expect(
      (await failure(h.as({ accountId: "gateway", role: "system", tier: "standard" }).listHypotheses({})))
        .code,
    ).toBe(Code.PermissionDenied);
    expect((await failure(h.as().listHypotheses({}))).code).toBe(Code.Unauthenticated);
    expect((await h.as(owner).getHypothesis({ hypothesisId: id })).hypothesis?.status).toBe("DRAFT");
  });

  it("lists newest first in offset pages, filtered, searched, with ARCHIVED hidden unless asked for", async () => {
    const owner = requester();
    const save = async (title: string, statement: string, experimentType = "") => {
      await h.clock.advance(1_000);
      return (await h.as(owner).createHypothesis({ title, statement, experimentType })).hypothesis!;
    };
    const mic = await save("MIC of compound A", "Compound A inhibits E. coli at 8 ug/mL", "MIC_MBC_ASSAY");
    const qpcr = await save("GENE1 knockdown", "siRNA lowers gene1 by 50% in HeLa", "QPCR_EXPRESSION");
    const wildcard = await save("Percent_sign", "Nothing special here");
    const archived = await save("Old idea about GENE1", "Superseded", "QPCR_EXPRESSION");
    await h.as(owner).archiveHypothesis({ hypothesisId: archived.id });

    const ids = (page: { hypotheses: Array<{ id: string }> }) => page.hypotheses.map((x) => x.id);
    const all = await h.as(owner).listHypotheses({});
    expect(ids(all)).toEqual([wildcard.id, qpcr.id, mic.id]);
    expect(all).toMatchObject({ total: 3n, limit: 20, offset: 0 });

    const second = await h.as(owner).listHypotheses({ limit: 2, offset: 2 });
    expect(ids(second)).toEqual([mic.id]);
    expect(second).toMatchObject({ total: 3n, limit: 2, offset: 2 });

    expect(ids(await h.as(owner).listHypotheses({ status: "ARCHIVED" }))).toEqual([archived.id]);
    expect(
      ids(await h.as(owner).listHypotheses({ status: "DRAFT", experimentType: "QPCR_EXPRESSION" })),
    ).toEqual([qpcr.id]);
    // Case-insensitive, over title and statement; archived ones stay hidden from a search too.
    expect(ids(await h.as(owner).listHypotheses({ search: "gene1" }))).toEqual([qpcr.id]);
    expect(ids(await h.as(owner).listHypotheses({ search: "E. COLI" }))).toEqual([mic.id]);
    // Wildcards match themselves: "%" only where a percent sign is, "_" only where an underscore is.
    expect(ids(await h.as(owner).listHypotheses({ search: "50%" }))).toEqual([qpcr.id]);
    expect(ids(await h.as(owner).listHypotheses({ search: "%" }))).toEqual([qpcr.id]);
    expect(ids(await h.as(owner).listHypotheses({ search: "t_s" }))).toEqual([wildcard.id]);
    expect(ids(await h.as(owner).listHypotheses({ search: "_" }))).toEqual([wildcard.id]);

    expect(await failure(h.as(owner).listHypotheses({ limit: 101, status: "draft" }))).toMatchObject({
      code: Code.InvalidArgument,
      violations: [{ field: "status", code: "invalid_value" }],
    });
    expect(await failure(h.as(owner).listHypotheses({ limit: 101 }))).toMatchObject({
      violations: [{ field: "limit", code: "invalid_value" }],
    });
    expect(await failure(h.as(owner).listHypotheses({ offset: -1 }))).toMatchObject({
      violations: [{ field: "offset", code: "invalid_value" }],
    });
    expect(await failure(h.as(owner).listHypotheses({ search: "x".repeat(201) }))).toMatchObject({
      violations: [{ field: "search", code: "invalid_value" }],
    });
  });

  it("PATCH changes only the supplied fields, in DRAFT only; an empty patch changes nothing", async () => {
    const owner = requester();
    const { hypothesis: created } = await h.as(owner).createHypothesis({ ...MANUAL, nullHypothesis: "none" });
    const id = created!.id;

    await h.clock.advance(60_000);
    const { hypothesis: unchanged } = await h.as(owner).updateHypothesis({ hypothesisId: id });
    expect(unchanged).toEqual(created);

    const { hypothesis: retitled } = await h
      .as(owner)
      .updateHypothesis({ hypothesisId: id, title: "Renamed" });
    expect(retitled).toMatchObject({
      title: "Renamed",
      statement: MANUAL.statement,
      nullHypothesis: "none",
      status: "DRAFT",
      version: 2n,
    });
    expect(retitled!.updatedAt!.seconds - created!.updatedAt!.seconds).toBe(60n);

    expect(await failure(h.as(owner).updateHypothesis({ hypothesisId: id, status: "USED" }))).toMatchObject({
      code: Code.InvalidArgument,
      violations: [{ field: "status", code: "invalid_value" }],
    });
    expect(await failure(h.as(owner).updateHypothesis({ hypothesisId: id, statement: " " }))).toMatchObject({
      violations: [{ field: "statement", code: "missing_required" }],
    });

    const { hypothesis: archived } = await h
      .as(owner)
      .updateHypothesis({ hypothesisId: id, status: "ARCHIVED" });
    expect(archived).toMatchObject({ status: "ARCHIVED", title: "Renamed", version: 3n });
    for (const patch of [{ title: "Again" }, {}]) {
      expect(await failure(h.as(owner).updateHypothesis({ hypothesisId: id, ...patch }))).toMatchObject({
        code: Code.FailedPrecondition,
        reason: "invalid_state",
        details: { status: "ARCHIVED", allowed_from: ["DRAFT"] },
      });
    }
  });

  it("the soft delete archives from any status, keeps the record, and is idempotent", async () => {
    const owner = requester();
    const { hypothesis: created } = await h.as(owner).createHypothesis(MANUAL);
    const id = created!.id;
    const { hypothesis: first } = await h.as(owner).archiveHypothesis({ hypothesisId: id });
    expect(first).toMatchObject({ id, status: "ARCHIVED", version: 2n });
    const { hypothesis: again } = await h.as(owner).archiveHypothesis({ hypothesisId: id });
    expect(again).toEqual(first);
    expect((await h.as(owner).getHypothesis({ hypothesisId: id })).hypothesis).toEqual(first);

    // A USED hypothesis (to-experiment sets it) can be archived too.
    const { hypothesis: used } = await h.as(owner).createHypothesis(MANUAL);
    await h.db.updateTable("hypotheses").set({ status: "USED" }).where("id", "=", used!.id).execute();
    expect((await h.as(owner).archiveHypothesis({ hypothesisId: used!.id })).hypothesis?.status).toBe(
      "ARCHIVED",
    );
  });
});
