/**
 * The hypothesis-generation engine and the hypothesis library together, through the gateway
 * (issue 7): start a run -> poll it (progress) -> edit the draft -> save the hypothesis ->
 * to-experiment (idempotent: a retry answers with the same experiment) -> the hypothesis is
 * USED; the synchronous endpoint; saving a hypothesis from a submitted experiment; owner-only
 * access; and the whole query corpus answered with drafts that pass POST /validate.
 * Black box: only the public REST API (the corpus comes from @petri/fixtures/engine).
 */
import { ENGINE_QUERY_CORPUS } from "@petri/fixtures/engine";
import { expect } from "vitest";
import { type ExperimentsTarget, newRequester } from "./experiments.scenarios.js";
import { eventually } from "./marketplace.scenarios.js";

const MIC_QUERY =
  "Does ciprofloxacin inhibit E. coli ATCC 25922 at 1 ug/mL or less? Broth microdilution, 18 h at 35 C.";

export async function engineToExperimentScenario(target: ExperimentsTarget): Promise<void> {
  const owner = await newRequester(target, "engine");
  const other = await newRequester(target, "engine-other");

  // Start a run; a second one while it is active is refused with the active run's id.
  const started = await owner.call("POST", "/cloud-labs/engine/start", { query: MIC_QUERY });
  expect(started.status, started.text).toBe(202);
  expect(started.body).toMatchObject({
    status: "PENDING",
    query: MIC_QUERY,
    job_type: "hypothesis_generation",
  });
  const runId: string = started.body.run_id;
  expect(started.headers.get("location")).toBe(`/cloud-labs/engine/runs/${runId}`);
  const again = await owner.call("POST", "/cloud-labs/engine/start", { query: "another question" });
  if (again.status === 409) {
    expect(again.body.error).toMatchObject({ code: "engine_run_active", details: { active_run_id: runId } });
  } else {
    // The first run finished in between: the second start was allowed; wait for it too.
    expect(again.status, again.text).toBe(202);
  }

  // Poll until COMPLETED; progress is reported on the way.
  const run = await eventually("the run to complete", async () => {
    const polled = await owner.call("GET", `/cloud-labs/engine/runs/${runId}`);
    expect(polled.status).toBe(200);
    expect(polled.body.progress.percentage).toBeGreaterThanOrEqual(0);
    expect(["PENDING", "RUNNING", "COMPLETED"]).toContain(polled.body.status);
    return polled.body.status === "COMPLETED" ? polled.body : undefined;
  });
  expect(run).toMatchObject({
    experiment_type: "MIC_MBC_ASSAY",
    progress: { stage: "done", percentage: 100 },
    error: null,
    result: { experiment_type: "MIC_MBC_ASSAY", sources: [], literature_grounded: false },
  });
  const result = run.result;
  expect(result.hypothesis.statement).not.toBe(result.hypothesis.null_hypothesis);
  expect(result.reasoning_trace.length).toBeGreaterThan(2);
  result.reasoning_trace.forEach((step: { step: number }, index: number) =>
    expect(step.step).toBe(index + 1),
  );
  const validation = await owner.call("POST", "/validate", result.intake_draft);
  expect(validation.body, validation.text).toMatchObject({ valid: true, errors: [] });
  expect((await other.call("GET", `/cloud-labs/engine/runs/${runId}`)).status).toBe(404);
  await eventually("no active run", async () => {
    const active = await owner.call("GET", "/cloud-labs/engine/active");
    return active.body === null ? true : undefined;
  });

  // Edit the draft, then save it in the library with the engine's metadata.
  const edited = {
    statement:
      "Ciprofloxacin inhibits visible growth of E. coli ATCC 25922 at 1 ug/mL or less (MIC <= 1 ug/mL).",
    null_hypothesis:
      "No ciprofloxacin concentration up to 1 ug/mL inhibits visible growth of E. coli ATCC 25922.",
  };
  const patched = await owner.call("PATCH", `/cloud-labs/engine/runs/${runId}/draft`, {
    edited_hypothesis: edited,
  });
  expect(patched.status, patched.text).toBe(200);
  expect(patched.body.edited_hypothesis).toEqual(edited);
  expect(patched.body.result.hypothesis).toEqual(result.hypothesis);
  const saved = await owner.call("POST", "/hypotheses", {
    title: "Ciprofloxacin MIC against E. coli",
    ...edited,
    experiment_type: result.experiment_type,
    intake_draft: result.intake_draft,
    engine_agent: "hypothesis_generation",
    engine_query: MIC_QUERY,
    engine_response: result,
  });
  expect(saved.status, saved.text).toBe(201);
  const hypothesisId: string = saved.body.id;

  // to-experiment: another account cannot; the owner gets the experiment, and a retry the same one.
  const body = { additional_fields: { privacy: "private" } };
  expect((await other.call("POST", `/hypotheses/${hypothesisId}/to-experiment`, body)).status).toBe(404);
  const created = await owner.call("POST", `/hypotheses/${hypothesisId}/to-experiment`, body);
  expect(created.status, created.text).toBe(201);
  expect(created.body).toMatchObject({
    experiment_type: "MIC_MBC_ASSAY",
    source_hypothesis_id: hypothesisId,
    request: { privacy: "private", hypothesis: { statement: edited.statement } },
  });
  expect(["open", "pending_review"]).toContain(created.body.status);
  const experimentId: string = created.body.experiment_id;
  const retried = await owner.call("POST", `/hypotheses/${hypothesisId}/to-experiment`, body);
  expect(retried.status).toBe(201);
  expect(retried.body.experiment_id).toBe(experimentId);
  expect(retried.headers.get("idempotent-replayed")).toBe("true");
  // USED once the hypotheses service consumed the experiment's ExperimentSubmitted (eventual).
  const used = await eventually("the hypothesis USED", async () => {
    const read = await owner.call("GET", `/hypotheses/${hypothesisId}`);
    return read.body.status === "USED" ? read : undefined;
  });
  expect(used.body).toMatchObject({ status: "USED", experiments_count: 1 });
  // A new Idempotency-Key makes a second experiment on purpose; both count.
  const second = await owner.call("POST", `/hypotheses/${hypothesisId}/to-experiment`, body, {
    "idempotency-key": "second-run",
  });
  expect(second.status, second.text).toBe(201);
  expect(second.body.experiment_id).not.toBe(experimentId);
  await eventually("both experiments counted", async () => {
    const read = await owner.call("GET", `/hypotheses/${hypothesisId}`);
    return read.body.experiments_count === 2 ? true : undefined;
  });
  const experiments = await owner.call("GET", "/experiments");
  expect(experiments.body.pagination.total).toBe(2);

  // Save the hypothesis of a submitted experiment; not someone else's.
  const derived = await owner.call("POST", "/hypotheses/from-experiment", { experiment_id: experimentId });
  expect(derived.status, derived.text).toBe(201);
  expect(derived.body).toMatchObject({
    status: "DRAFT",
    experiments_count: 0,
    statement: edited.statement,
    source_experiment_id: experimentId,
  });
  expect(derived.body.intake_draft).toMatchObject({ experiment_type: "MIC_MBC_ASSAY" });
  expect(
    (await other.call("POST", "/hypotheses/from-experiment", { experiment_id: experimentId })).status,
  ).toBe(404);

  // An archived hypothesis no longer becomes an experiment; an incomplete one names what is missing.
  await owner.call("DELETE", `/hypotheses/${derived.body.id}`);
  const archived = await owner.call("POST", `/hypotheses/${derived.body.id}/to-experiment`, {});
  expect(archived.status).toBe(409);
  expect(archived.body.error).toMatchObject({ code: "invalid_state", details: { status: "ARCHIVED" } });
  const bare = await owner.call("POST", "/hypotheses", { title: "Bare", statement: "X inhibits Y." });
  const incomplete = await owner.call("POST", `/hypotheses/${bare.body.id}/to-experiment`, {});
  expect(incomplete.status).toBe(422);
  expect(incomplete.body.error.code).toBe("validation_failed");

  // The synchronous endpoint answers with the same shape, citing nothing.
  const sync = await owner.call("POST", "/cloud-labs/engine", {
    query: "IC50 of doxorubicin on HeLa cells after 72 h",
    context: "MTT readout",
  });
  expect(sync.status, sync.text).toBe(200);
  expect(sync.body).toMatchObject({
    experiment_type: "CELL_VIABILITY_IC50",
    sources: [],
    literature_grounded: false,
    hypothesis: {
      statement: expect.any(String),
      null_hypothesis: expect.any(String),
      rationale: expect.any(String),
    },
  });
  expect((await owner.call("POST", "/cloud-labs/engine", { query: "" })).status).toBe(422);

  // The run listing and clear-history (the caller's only).
  const completed = await owner.call("GET", "/cloud-labs/engine/runs?status=COMPLETED");
  expect(completed.body.runs.map((r: { run_id: string }) => r.run_id)).toContain(runId);
  await eventually("the second run (if any) to finish", async () => {
    const active = await owner.call("GET", "/cloud-labs/engine/active");
    return active.body === null ? true : undefined;
  });
  const all = await owner.call("GET", "/cloud-labs/engine/runs");
  expect(all.body.total).toBe(again.status === 202 ? 2 : 1);
  expect((await other.call("POST", "/cloud-labs/engine/runs/clear-history")).body).toEqual({
    deleted_count: 0,
  });
  const cleared = await owner.call("POST", "/cloud-labs/engine/runs/clear-history");
  expect(cleared.status).toBe(200);
  expect(cleared.body).toEqual({ deleted_count: all.body.total });
  expect((await owner.call("GET", "/cloud-labs/engine/runs")).body.total).toBe(0);
}

/** Every corpus query: the engine picks the expected type and its draft passes POST /validate. */
export async function engineCorpusScenario(target: ExperimentsTarget): Promise<void> {
  // Two accounts: the corpus makes about a hundred calls, the standard tier allows 100 a minute.
  const asker = await newRequester(target, "corpus");
  const validator = await newRequester(target, "corpus-validate");
  for (const entry of ENGINE_QUERY_CORPUS) {
    const answer = await asker.call("POST", "/cloud-labs/engine", {
      query: entry.query,
      ...(entry.context ? { context: entry.context } : {}),
    });
    expect(answer.status, `${entry.query}: ${answer.text}`).toBe(200);
    expect(answer.body.experiment_type, entry.query).toBe(entry.expected_type);
    const validation = await validator.call("POST", "/validate", answer.body.intake_draft);
    expect(validation.body, `${entry.query}: ${validation.text}`).toMatchObject({ valid: true, errors: [] });
  }
}

/**
 * The engine's drafts reach the cloud labs: nearly every draft of a standard type is valid
 * on at least one provider, and each refusal names its field (an unstocked cell line, missing
 * primers...). CUSTOM drafts are design requests, which no lab runs before the design exists.
 */
export async function engineDraftsToCloudLabsScenario(target: ExperimentsTarget): Promise<void> {
  // About 150 calls: a fresh account every 80 keeps within the standard tier's 100 a minute.
  let client = await newRequester(target, "drafts-to-labs");
  let calls = 0;
  const call = async (method: string, path: string, body?: unknown) => {
    if (++calls % 80 === 0) client = await newRequester(target, `drafts-to-labs-${calls}`);
    return client.call(method, path, body);
  };
  const { providers } = (await call("GET", "/cloud-labs/providers")).body as {
    providers: { id: string; supported_experiment_types: string[] }[];
  };
  let standard = 0;
  let runnable = 0;
  for (const entry of ENGINE_QUERY_CORPUS.filter((e) => e.expected_type !== "CUSTOM")) {
    standard += 1;
    const draft = (await call("POST", "/cloud-labs/engine", { query: entry.query })).body;
    let valid = false;
    for (const provider of providers.filter((p) =>
      p.supported_experiment_types.includes(draft.experiment_type),
    )) {
      const verdict = await call("POST", "/cloud-labs/validate", {
        intake: draft.intake_draft,
        provider_id: provider.id,
      });
      expect(verdict.status, verdict.text).toBe(200);
      if (verdict.body.valid) valid = true;
      else for (const error of verdict.body.errors) expect(error.field, verdict.text).not.toBe("");
    }
    if (valid) runnable += 1;
  }
  expect(runnable / standard).toBeGreaterThanOrEqual(0.9);
}
