import { describe, expect, it } from "vitest";
import { type GenerationRequest, type VerifiedSource, EngineProviderError } from "../domain/generation.js";
import { type EngineProviders, RunFailure, runPipeline } from "./run-pipeline.js";
import { NO_ENTITIES } from "../../test/support/writer-input.js";

const REQUEST: GenerationRequest = {
  query: "MIC of drug X against E. coli",
  context: "",
  jobType: "hypothesis_generation",
};
const SOURCE: VerifiedSource = {
  title: "Synthetic fixture (Petri test data)",
  doi: "10.5555/petri-test.0001",
  relevance: "search result 1",
  provider: "europepmc",
  retrieved_by: "drug X E. coli",
  verification: {
    doi_resolves: true,
    title_similarity: 1,
    registered_title: "Synthetic fixture",
    checked_at: "2026-12-16T09:00:00.000Z",
  },
};

const rulesOnly: EngineProviders = {
  rules: () => ({
    experiment_type: "MIC_MBC_ASSAY",
    hypothesis: {
      statement: "rules statement",
      null_hypothesis: "rules null",
      rationale: "template rationale",
    },
    intake_draft: { experiment_type: "MIC_MBC_ASSAY", hypothesis: { statement: "rules statement" } },
    reasoning_trace: [
      { step: 1, action: "rule:a", summary: "a" },
      { step: 2, action: "rule:b", summary: "b" },
    ],
    entities: NO_ENTITIES,
    notes: ["budget is a placeholder"],
    engine: "offline-rules@1",
    searchTerms: "drug X E. coli",
  }),
  withHypothesis: (draft, hypothesis) => ({ ...draft, hypothesis: { statement: hypothesis.statement } }),
};

const stages: string[] = [];
const report = async (stage: string) => {
  stages.push(stage);
};

describe("the generation pipeline", () => {
  it("with the rules alone: their text, no sources, a trace saying nothing was searched", async () => {
    stages.length = 0;
    const result = await runPipeline(REQUEST, rulesOnly, report, new AbortController().signal);
    expect(result).toMatchObject({
      engine: "offline-rules@1",
      literature_grounded: false,
      sources: [],
      hypothesis: { statement: "rules statement" },
      notes: ["budget is a placeholder"],
    });
    expect(result.reasoning_trace.map((s) => [s.step, s.action])).toEqual([
      [1, "rule:a"],
      [2, "rule:b"],
      [3, "literature:not_configured"],
    ]);
    expect(stages).toEqual(["parsing", "entity_extraction", "classification", "drafting"]);
  });

  it("with literature and an LLM: verified sources, the LLM's text in the draft, each step traced", async () => {
    stages.length = 0;
    const seen: unknown[] = [];
    const result = await runPipeline(
      REQUEST,
      {
        ...rulesOnly,
        literature: {
          id: "europepmc",
          findSources: async (terms) => {
            seen.push(terms);
            return {
              sources: [SOURCE],
              rejected: [{ doi: "10.5555/x", title: "t", reason: "title_mismatch" }],
            };
          },
        },
        writer: {
          id: "openai-compatible:m",
          write: async (input) => {
            seen.push(input.sources.length);
            return {
              statement: "llm statement",
              null_hypothesis: "llm null",
              rationale: "llm why",
              experiment_type: "CUSTOM",
            };
          },
        },
      },
      report,
      new AbortController().signal,
    );
    expect(seen).toEqual(["drug X E. coli", 1]);
    expect(result).toMatchObject({
      engine: "openai-compatible:m",
      literature_grounded: true,
      sources: [SOURCE],
      experiment_type: "MIC_MBC_ASSAY",
      hypothesis: { statement: "llm statement", null_hypothesis: "llm null", rationale: "llm why" },
      intake_draft: { hypothesis: { statement: "llm statement" } },
    });
    const actions = result.reasoning_trace.map((s) => s.action);
    expect(actions.slice(2)).toEqual(["literature:search", "llm:hypothesis_written"]);
    expect(result.reasoning_trace[2]!.summary).toContain("title_mismatch");
    expect(result.reasoning_trace[3]!.summary).toContain("kept as MIC_MBC_ASSAY");
    expect(stages).toContain("literature_search");
  });

  it("a literature_review without a literature provider fails; provider errors pass through", async () => {
    const reviewWithRulesOnly = () =>
      runPipeline(
        { ...REQUEST, jobType: "literature_review" },
        rulesOnly,
        report,
        new AbortController().signal,
      );
    await expect(reviewWithRulesOnly()).rejects.toMatchObject({ code: "literature_provider_unavailable" });
    await expect(reviewWithRulesOnly()).rejects.toBeInstanceOf(RunFailure);
    const failing: EngineProviders = {
      ...rulesOnly,
      writer: {
        id: "w",
        write: async () => {
          throw new EngineProviderError("llm_rate_limited", "rate limited");
        },
      },
    };
    await expect(runPipeline(REQUEST, failing, report, new AbortController().signal)).rejects.toMatchObject({
      code: "llm_rate_limited",
    });
  });

  it("stops at the next stage once aborted", async () => {
    const abort = new AbortController();
    abort.abort(new Error("stopped"));
    await expect(runPipeline(REQUEST, rulesOnly, report, abort.signal)).rejects.toThrow("stopped");
  });
});
