/**
 * The hypothesis library through the gateway (issue 7, CRUD): saving a manual and an
 * engine-sourced hypothesis, the listing (newest first, filters, search, ARCHIVED hidden,
 * paging), PATCH in DRAFT only, the idempotent soft delete, and privacy between accounts.
 * Black box: only the public REST API.
 */
import { expect } from "vitest";
import { type ExperimentsTarget, newRequester, staffClient } from "./experiments.scenarios.js";

const ENGINE_SAVE = {
  title: "Compound A against E. coli",
  statement: "Compound A inhibits E. coli ATCC 25922 growth at or below 8 ug/mL (100% of replicates).",
  null_hypothesis: "Compound A does not inhibit E. coli growth at or below 8 ug/mL.",
  experiment_type: "MIC_MBC_ASSAY",
  intake_draft: {
    experiment_type: "MIC_MBC_ASSAY",
    mic_mbc_assay: {
      target_organisms: ["E. coli ATCC 25922"],
      test_compounds: [{ name: "Compound A", concentrations_ug_ml: [1, 2, 4, 8, 16] }],
    },
  },
  engine_agent: "hypothesis_generation",
  engine_query: "Which compounds inhibit E. coli?",
  engine_response: { hypothesis: { statement: "..." }, sources: [{ title: "Paper", doi: "10.1000/xyz" }] },
};

/** Creation times are in milliseconds: a pause keeps "newest first" unambiguous between saves. */
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 5));

export async function hypothesisLibraryScenario(target: ExperimentsTarget): Promise<void> {
  const owner = await newRequester(target, "library");
  const other = await newRequester(target, "library-other");
  const staff = await staffClient(target);

  // Save: an engine-sourced one and two manual ones.
  const engine = await owner.call("POST", "/hypotheses", ENGINE_SAVE);
  expect(engine.status, engine.text).toBe(201);
  expect(engine.headers.get("location")).toBe(`/hypotheses/${engine.body.id}`);
  expect(engine.body).toMatchObject({ ...ENGINE_SAVE, status: "DRAFT", experiments_count: 0 });
  expect(engine.body.id).toMatch(/^hyp_/);
  await nextMillisecond();
  const manual = await owner.call("POST", "/hypotheses", {
    title: "GENE1 knockdown",
    statement: "siRNA against GENE1 lowers its mRNA by at least 50% in HeLa cells",
    experiment_type: "QPCR_EXPRESSION",
  });
  expect(manual.status, manual.text).toBe(201);
  expect(manual.body).toMatchObject({ null_hypothesis: null, intake_draft: null, engine_response: null });
  await nextMillisecond();
  const scratch = await owner.call("POST", "/hypotheses", { title: "Scratch", statement: "to be archived" });
  expect(scratch.status).toBe(201);

  const invalid = await owner.call("POST", "/hypotheses", { title: "x".repeat(201), statement: "" });
  expect(invalid.status).toBe(422);
  expect(invalid.body.error.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
    "statement",
    "title",
  ]);

  // Read: the owner sees the whole record; another account (staff included) gets 404.
  const read = await owner.call("GET", `/hypotheses/${engine.body.id}`);
  expect(read.status).toBe(200);
  expect(read.body).toEqual(engine.body);
  for (const stranger of [other, staff]) {
    expect((await stranger.call("GET", `/hypotheses/${engine.body.id}`)).status).toBe(404);
    expect((await stranger.call("PATCH", `/hypotheses/${engine.body.id}`, { title: "mine" })).status).toBe(
      404,
    );
    expect((await stranger.call("DELETE", `/hypotheses/${engine.body.id}`)).status).toBe(404);
  }
  expect((await other.call("GET", "/hypotheses")).body).toMatchObject({ hypotheses: [], total: 0 });

  // PATCH in DRAFT: only the supplied fields change.
  const renamed = await owner.call("PATCH", `/hypotheses/${manual.body.id}`, {
    title: "GENE1 siRNA knockdown",
  });
  expect(renamed.status, renamed.text).toBe(200);
  expect(renamed.body).toMatchObject({ title: "GENE1 siRNA knockdown", statement: manual.body.statement });
  const badStatus = await owner.call("PATCH", `/hypotheses/${manual.body.id}`, { status: "USED" });
  expect(badStatus.status).toBe(422);

  // Delete archives (idempotent); an archived hypothesis can no longer be patched.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const deleted = await owner.call("DELETE", `/hypotheses/${scratch.body.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: scratch.body.id, status: "ARCHIVED" });
  }
  const frozen = await owner.call("PATCH", `/hypotheses/${scratch.body.id}`, { title: "again" });
  expect(frozen.status).toBe(409);
  expect(frozen.body.error).toMatchObject({
    code: "invalid_state",
    details: { status: "ARCHIVED", allowed_from: ["DRAFT"] },
  });

  // List: newest first, ARCHIVED hidden unless asked for, filters, search, paging.
  const ids = (page: { body: { hypotheses: Array<{ id: string }> } }) =>
    page.body.hypotheses.map((h) => h.id);
  const all = await owner.call("GET", "/hypotheses");
  expect(all.status).toBe(200);
  expect(ids(all)).toEqual([manual.body.id, engine.body.id]);
  expect(all.body).toMatchObject({ total: 2, limit: 20, offset: 0 });
  expect(ids(await owner.call("GET", "/hypotheses?status=ARCHIVED"))).toEqual([scratch.body.id]);
  expect(ids(await owner.call("GET", "/hypotheses?experiment_type=MIC_MBC_ASSAY"))).toEqual([engine.body.id]);
  expect(ids(await owner.call("GET", "/hypotheses?search=E.%20COLI"))).toEqual([engine.body.id]);
  expect(ids(await owner.call("GET", "/hypotheses?search=50%25"))).toEqual([manual.body.id]);
  expect(ids(await owner.call("GET", "/hypotheses?search=_"))).toEqual([]);
  const second = await owner.call("GET", "/hypotheses?limit=1&offset=1");
  expect(ids(second)).toEqual([engine.body.id]);
  expect(second.body).toMatchObject({ total: 2, limit: 1, offset: 1 });
  expect((await owner.call("GET", "/hypotheses?limit=0")).status).toBe(422);
}
