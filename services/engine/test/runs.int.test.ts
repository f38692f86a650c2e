/**
 * Engine runs through the RPCs and the worker, on PostgreSQL and PGlite: start -> worker ->
 * COMPLETED with progress; the owner-only reads; the active-run limit (also under concurrent
 * starts); provider failures, time limits and unavailable literature as FAILED runs with a
 * code; durability (a lost worker's run is resumed, then failed as interrupted once its
 * attempts are used; a graceful stop hands runs back); draft edits; clear-history; and the
 * synchronous endpoint's deadline.
 */
import { Code } from "@connectrpc/connect";
import { metricSampler } from "@petri/fixtures/service-kit";
import { metricsRegistry } from "@petri/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leasePendingRuns } from "../src/db/runs.js";
import { EngineProviderError } from "../src/domain/generation.js";
import { RunWorker } from "../src/app/run-worker.js";
import { DEFAULT_RUN_LIMITS } from "../src/config.js";
import {
  Backend,
  ENGINES,
  type EngineUnderTest,
  cannedProviders,
  failure,
  logger,
  requester,
  startEngine,
  until,
} from "./support/harness.js";

const metricSample = metricSampler(metricsRegistry);

const START = {
  query: "MIC of ciprofloxacin against E. coli ATCC 25922",
  jobType: "",
  experimentType: "",
  context: "",
};

/** A provider whose writer waits until it is aborted (a hung LLM). */
const hangingWriter = {
  id: "hanging-writer",
  write: (_input: unknown, signal: AbortSignal) =>
    new Promise<never>((_resolve, reject) => {
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    }),
};

describe.each(ENGINES)("engine runs on %s", (engine) => {
  let backend: Backend;
  let e: EngineUnderTest;

  beforeAll(async () => {
    backend = await Backend.open(engine);
    e = await startEngine(backend.database);
  });
  afterAll(async () => {
    await e?.stop();
    await backend?.close();
  });

  it("queues a run, the worker completes it with progress 100, and only its owner sees it", async () => {
    const owner = requester();
    const completedBefore = await metricSample("petri_engine_run_duration_seconds_count", {
      outcome: "completed",
    });
    const { run } = await e.as(owner).startEngineRun(START);
    expect(run).toMatchObject({ status: "PENDING", query: START.query, jobType: "hypothesis_generation" });
    expect(run!.runId).toMatch(/^run_/);
    expect((await e.as(owner).getActiveEngineRun({})).run?.runId).toBe(run!.runId);

    await e.service.worker.drain();
    const { run: done } = await e.as(owner).getEngineRun({ runId: run!.runId });
    expect(done).toMatchObject({
      status: "COMPLETED",
      experimentType: "MIC_MBC_ASSAY",
      progress: { stage: "done", percentage: 100 },
      attempts: 1,
      error: "",
    });
    const result = JSON.parse(done!.resultJson);
    expect(result).toMatchObject({
      engine: "offline-rules@test",
      literature_grounded: false,
      sources: [],
      hypothesis: { statement: expect.stringContaining(START.query) },
    });
    expect(result.reasoning_trace.map((s: { step: number }) => s.step)).toEqual([1, 2]);
    expect(result.reasoning_trace[1].action).toBe("literature:not_configured");
    expect(await metricSample("petri_engine_run_duration_seconds_count", { outcome: "completed" })).toBe(
      completedBefore + 1,
    );
    expect((await e.as(owner).getActiveEngineRun({})).run).toBeUndefined();

    const stranger = requester();
    expect(await failure(e.as(stranger).getEngineRun({ runId: run!.runId }))).toMatchObject({
      code: Code.NotFound,
    });
    expect((await e.as(stranger).listEngineRuns({ status: "", limit: 0, offset: 0 })).total).toBe(0n);
    const page = await e.as(owner).listEngineRuns({ status: "COMPLETED", limit: 0, offset: 0 });
    expect(page).toMatchObject({ total: 1n, limit: 20, offset: 0 });
  });

  it("refuses bad input with every field named", async () => {
    const owner = requester();
    expect(
      await failure(
        e.as(owner).startEngineRun({ query: " ", jobType: "essay", experimentType: "PCR", context: "" }),
      ),
    ).toMatchObject({
      code: Code.InvalidArgument,
      violations: [
        { field: "query", code: "missing_required" },
        { field: "job_type", code: "invalid_value" },
        { field: "experiment_type", code: "invalid_value" },
      ],
    });
    expect(await failure(e.as(owner).listEngineRuns({ status: "DONE", limit: 0, offset: 0 }))).toMatchObject({
      code: Code.InvalidArgument,
    });
    expect(await failure(e.as(owner).listEngineRuns({ status: "", limit: 101, offset: 0 }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("allows one active run per account: another start is engine_run_active, even when they race", async () => {
    const owner = requester();
    const starts = await Promise.allSettled(
      Array.from({ length: 6 }, () => e.as(owner).startEngineRun(START)),
    );
    const started = starts.filter((s) => s.status === "fulfilled");
    expect(started).toHaveLength(1);
    const activeId = (started[0] as PromiseFulfilledResult<{ run?: { runId: string } }>).value.run!.runId;
    expect(await failure(e.as(owner).startEngineRun(START))).toMatchObject({
      code: Code.AlreadyExists,
      reason: "engine_run_active",
      details: { active_run_id: activeId, limit: 1 },
    });
    // Another account is not limited by this one.
    await e.as(requester()).startEngineRun(START);
    await e.service.worker.drain();
    await e.as(owner).startEngineRun(START);
    await e.service.worker.drain();
  });

  it("edits the draft of a COMPLETED run only, keeping the engine's result", async () => {
    const owner = requester();
    const { run } = await e.as(owner).startEngineRun(START);
    const edit = { runId: run!.runId, statement: "Edited statement.", nullHypothesis: "Edited null." };
    expect(await failure(e.as(owner).updateEngineRunDraft(edit))).toMatchObject({
      code: Code.FailedPrecondition,
      details: { status: "PENDING", allowed_from: ["COMPLETED"] },
    });
    await e.service.worker.drain();
    const { run: edited } = await e.as(owner).updateEngineRunDraft(edit);
    expect(JSON.parse(edited!.editedHypothesisJson)).toEqual({
      statement: "Edited statement.",
      null_hypothesis: "Edited null.",
    });
    expect(JSON.parse(edited!.resultJson).hypothesis.statement).toContain(START.query);
    expect(
      await failure(e.as(owner).updateEngineRunDraft({ ...edit, nullHypothesis: "Edited statement." })),
    ).toMatchObject({ code: Code.InvalidArgument });
    expect(await failure(e.as(requester()).updateEngineRunDraft(edit))).toMatchObject({
      code: Code.NotFound,
    });
  });

  it("clears the caller's history, active runs included, and only the caller's", async () => {
    const owner = requester();
    const other = requester();
    await e.as(owner).startEngineRun(START);
    await e.service.worker.drain();
    await e.as(owner).startEngineRun(START);
    await e.as(other).startEngineRun(START);
    expect((await e.as(owner).clearEngineRunHistory({})).deletedCount).toBe(2n);
    expect((await e.as(owner).listEngineRuns({ status: "", limit: 0, offset: 0 })).total).toBe(0n);
    expect((await e.as(other).listEngineRuns({ status: "", limit: 0, offset: 0 })).total).toBe(1n);
    await e.service.worker.drain();
  });

  it("answers synchronously with the same pipeline", async () => {
    const result = JSON.parse(
      (
        await e.as(requester()).generateHypothesis({
          query: "zone of inhibition",
          context: "",
          experimentType: "ZONE_OF_INHIBITION",
        })
      ).resultJson,
    );
    expect(result).toMatchObject({
      experiment_type: "ZONE_OF_INHIBITION",
      sources: [],
      literature_grounded: false,
    });
  });
});

describe.each(ENGINES)("engine run failures and durability on %s", (engine) => {
  let backend: Backend;

  beforeAll(async () => {
    backend = await Backend.open(engine);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it("fails a run with the provider's code and message, and a literature_review without a literature provider", async () => {
    const e = await startEngine(backend.database, {
      providers: {
        ...cannedProviders,
        writer: {
          id: "broken-llm",
          write: async () => {
            throw new EngineProviderError("llm_unavailable", "the LLM answered 500 three times");
          },
        },
      },
      limits: { maxActiveRunsPerAccount: 5 },
    });
    try {
      const owner = requester();
      const { run: generation } = await e.as(owner).startEngineRun(START);
      const { run: review } = await e.as(owner).startEngineRun({ ...START, jobType: "literature_review" });
      await e.service.worker.drain();
      expect((await e.as(owner).getEngineRun({ runId: generation!.runId })).run).toMatchObject({
        status: "FAILED",
        errorCode: "llm_unavailable",
        error: "the LLM answered 500 three times",
        progress: { stage: "failed" },
        resultJson: "",
      });
      expect((await e.as(owner).getEngineRun({ runId: review!.runId })).run).toMatchObject({
        status: "FAILED",
        errorCode: "literature_provider_unavailable",
      });
      expect(
        await failure(e.as(owner).generateHypothesis({ query: "MIC of x", context: "", experimentType: "" })),
      ).toMatchObject({ code: Code.Unavailable, reason: "llm_unavailable" });
    } finally {
      await e.stop();
    }
  });

  it("fails a run that exceeds its time limit, and a synchronous request that exceeds its deadline", async () => {
    const e = await startEngine(backend.database, {
      providers: { ...cannedProviders, writer: hangingWriter },
      limits: { runTimeoutMs: 50, syncTimeoutMs: 50 },
    });
    try {
      const owner = requester();
      const { run } = await e.as(owner).startEngineRun(START);
      await e.service.worker.drain();
      expect((await e.as(owner).getEngineRun({ runId: run!.runId })).run).toMatchObject({
        status: "FAILED",
        errorCode: "timeout",
      });
      expect(
        await failure(e.as(owner).generateHypothesis({ query: "MIC of x", context: "", experimentType: "" })),
      ).toMatchObject({ code: Code.Unavailable, reason: "engine_timeout" });
    } finally {
      await e.stop();
    }
  });

  it("resumes a run whose worker died, and fails it as interrupted once its attempts are used", async () => {
    const e = await startEngine(backend.database, { limits: { maxAttempts: 2, maxActiveRunsPerAccount: 5 } });
    try {
      const owner = requester();
      const { run } = await e.as(owner).startEngineRun(START);
      // A worker that leases the run and then dies (never reports again).
      const leaseMs = DEFAULT_RUN_LIMITS.leaseMs;
      const lease = () =>
        leasePendingRuns(e.db, "wkr_dead", 10, e.clock.now(), new Date(e.clock.now().getTime() + leaseMs));
      expect((await lease()).map((r) => r.id)).toEqual([run!.runId]);
      expect((await e.as(owner).getEngineRun({ runId: run!.runId })).run).toMatchObject({
        status: "RUNNING",
        attempts: 1,
      });
      // Before the lease expires nobody takes it over.
      await e.service.worker.step();
      expect((await e.as(owner).getEngineRun({ runId: run!.runId })).run?.status).toBe("RUNNING");
      await e.clock.advance(leaseMs + 1);
      await e.service.worker.drain();
      expect((await e.as(owner).getEngineRun({ runId: run!.runId })).run).toMatchObject({
        status: "COMPLETED",
        attempts: 2,
      });
    } finally {
      await e.stop();
    }
  });

  it("fails a run as interrupted when its worker dies on the last attempt", async () => {
    const e = await startEngine(backend.database, { limits: { maxAttempts: 1 } });
    try {
      const owner = requester();
      const { run } = await e.as(owner).startEngineRun(START);
      await leasePendingRuns(e.db, "wkr_dead", 10, e.clock.now(), new Date(e.clock.now().getTime() + 1_000));
      await e.clock.advance(1_001);
      await e.service.worker.drain();
      expect((await e.as(owner).getEngineRun({ runId: run!.runId })).run).toMatchObject({
        status: "FAILED",
        errorCode: "interrupted",
        progress: { stage: "failed" },
      });
      // Nothing stays active: a new run may start.
      await e.as(owner).startEngineRun(START);
      await e.service.worker.drain();
    } finally {
      await e.stop();
    }
  });

  it("hands runs back on a graceful stop (not counting the attempt); another worker completes them", async () => {
    const e = await startEngine(backend.database, {
      providers: { ...cannedProviders, writer: hangingWriter },
    });
    try {
      const owner = requester();
      const { run } = await e.as(owner).startEngineRun(START);
      const stopping = new RunWorker({
        db: e.db,
        clock: e.clock,
        logger,
        providers: { ...cannedProviders, writer: hangingWriter },
        limits: DEFAULT_RUN_LIMITS,
      });
      await stopping.step();
      await until(
        async () =>
          (await e.as(owner).getEngineRun({ runId: run!.runId })).run?.progress?.stage === "drafting",
        "the run to reach drafting",
      );
      await stopping.stop();
      expect((await e.as(owner).getEngineRun({ runId: run!.runId })).run).toMatchObject({
        status: "PENDING",
        attempts: 0,
      });
      const healthy = new RunWorker({
        db: e.db,
        clock: e.clock,
        logger,
        providers: cannedProviders,
        limits: DEFAULT_RUN_LIMITS,
      });
      await healthy.drain();
      expect((await e.as(owner).getEngineRun({ runId: run!.runId })).run).toMatchObject({
        status: "COMPLETED",
        attempts: 1,
      });
    } finally {
      await e.stop();
    }
  });
});
