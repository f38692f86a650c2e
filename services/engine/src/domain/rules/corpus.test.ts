import { describe, expect, it } from "vitest";

import { ENGINE_QUERY_CORPUS } from "@petri/fixtures/engine";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { RULES_ENGINE_ID, runRulesEngine, type RulesEngineOutput } from "./index.js";

function run(entry: (typeof ENGINE_QUERY_CORPUS)[number]): RulesEngineOutput {
  return runRulesEngine({
    query: entry.query,
    context: entry.context ?? "",
    jobType: "hypothesis_generation",
  });
}

/** Phrases that would claim the engine read or cited literature. */
const LITERATURE_CLAIMS =
  /\bdoi\b|10\.\d{4,9}\/|\bet al\b|\bpubmed\b|\bpmid\b|according to|studies (?:show|have shown)|\bpublished\b/i;

describe("query corpus", () => {
  it("has at least 6 queries for every experiment type", () => {
    for (const type of EXPERIMENT_TYPES) {
      expect(ENGINE_QUERY_CORPUS.filter((e) => e.expected_type === type).length).toBeGreaterThanOrEqual(6);
    }
    expect(Object.isFrozen(ENGINE_QUERY_CORPUS)).toBe(true);
  });

  describe.each(ENGINE_QUERY_CORPUS.map((entry, index) => ({ index, entry })))("#$index", ({ entry }) => {
    const output = run(entry);

    it(`is classified as ${entry.expected_type}`, () => {
      expect(output.experiment_type).toBe(entry.expected_type);
      expect(output.intake_draft.experiment_type).toBe(entry.expected_type);
    });

    it("recognises the expected entities", () => {
      for (const [kind, values] of Object.entries(entry.expect ?? {})) {
        const found = output.entities[kind as keyof typeof output.entities] as unknown[];
        expect(found, kind).toEqual(expect.arrayContaining(values));
      }
    });

    it("is deterministic", () => {
      expect(run(entry)).toEqual(output);
    });

    it("drafts a null hypothesis that differs from the statement", () => {
      const { statement, null_hypothesis: nullHypothesis, rationale } = output.hypothesis;
      expect(statement.length).toBeGreaterThanOrEqual(10);
      expect(statement.length).toBeLessThanOrEqual(1000);
      expect(nullHypothesis).not.toBe(statement);
      expect(nullHypothesis).toMatch(/\b(?:not|no)\b/i);
      expect(rationale).toMatch(/^Drafted from rules, not from literature/);
      expect(output.intake_draft.hypothesis).toEqual(output.hypothesis);
    });

    it("numbers its trace steps consecutively and never claims literature", () => {
      expect(output.reasoning_trace.map((s) => s.step)).toEqual(output.reasoning_trace.map((_, i) => i + 1));
      for (const step of output.reasoning_trace) {
        expect(step.action).toMatch(/^rule:[a-z_]+$/);
        expect(step.summary).not.toMatch(LITERATURE_CLAIMS);
      }
      expect(output.hypothesis.rationale).not.toMatch(LITERATURE_CLAIMS);
    });

    it("never returns sources", () => {
      expect(output.sources).toEqual([]);
      expect(output.literature_grounded).toBe(false);
      expect(output.engine).toBe(RULES_ENGINE_ID);
    });

    it("builds a complete intake draft with the standard defaults", () => {
      const draft = output.intake_draft as Record<string, any>;
      expect(draft.title.length).toBeGreaterThanOrEqual(5);
      expect(draft.title.length).toBeLessThanOrEqual(200);
      expect(draft.privacy).toBe("private");
      // Disk diffusion: replicate disks on one lawn; every other type 3 x 3.
      expect(draft.replicates).toEqual({
        technical: 3,
        biological: output.experiment_type === "ZONE_OF_INHIBITION" ? 1 : 3,
      });
      expect(draft.turnaround_budget.budget_max_usd).toBeGreaterThanOrEqual(50);
      expect(draft.compliance.bsl).toMatch(/^BSL-[12]$/);
      expect(draft.acceptance_criteria.success_conditions.length).toBeGreaterThan(0);
      expect(output.searchTerms.length).toBeGreaterThan(0);
      expect(output.notes.length).toBeGreaterThan(0);
    });
  });
});
