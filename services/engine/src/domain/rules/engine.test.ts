import fc from "fast-check";
import { describe, expect, it } from "vitest";

import type { GenerationRequest } from "../generation.js";
import { classify } from "./classify.js";
import { extractEntities } from "./extract.js";
import { MAX_QUERY_CHARS, draftWithHypothesis, runRulesEngine, type RulesEngineOutput } from "./index.js";
import { normaliseText } from "./normalise.js";

function request(query: string, extra: Partial<GenerationRequest> = {}): GenerationRequest {
  return { query, context: "", jobType: "hypothesis_generation", ...extra };
}

function classifyQuery(query: string) {
  const text = normaliseText(query);
  return classify(text, "", extractEntities(text));
}

type Draft = Record<string, any>;

describe("classification", () => {
  it("lets the caller's experiment type win over the cues", () => {
    const output = runRulesEngine(
      request("MIC of PX-17 against S. aureus", { experimentType: "ZONE_OF_INHIBITION" }),
    );
    expect(output.experiment_type).toBe("ZONE_OF_INHIBITION");
    expect(output.reasoning_trace.map((s) => s.action)).toContain("rule:type_from_caller");
    expect((output.intake_draft as Draft).zone_of_inhibition.compound_name).toBe("PX-17");
  });

  it("falls back to CUSTOM when nothing reaches the threshold", () => {
    expect(classifyQuery("please help with my project")).toMatchObject({
      type: "CUSTOM",
      decidedBy: "fallback",
    });
    expect(classifyQuery("")).toMatchObject({ type: "CUSTOM", decidedBy: "fallback" });
  });

  it("falls back to CUSTOM on a tie between two types", () => {
    const result = classifyQuery("viability and OD600 growth");
    expect(result.scores.CELL_VIABILITY_IC50).toBe(result.scores.MICROBIAL_GROWTH_MATRIX);
    expect(result).toMatchObject({ type: "CUSTOM", decidedBy: "fallback" });
  });

  it("does not read MIC inside microbial", () => {
    const result = classifyQuery("microbial microscopy");
    expect(result.cues.map((c) => c.label)).not.toContain("MIC");
  });

  it("counts context cues at half weight", () => {
    const text = normaliseText("test PX-17 on HeLa");
    const withContext = classify(text, "cytotoxicity screen", extractEntities(text));
    const without = classify(text, "", extractEntities(text));
    expect(withContext.scores.CELL_VIABILITY_IC50 - without.scores.CELL_VIABILITY_IC50).toBe(2);
    expect(withContext.cues.find((c) => c.label === "cytotoxicity")?.where).toBe("context");
  });

  it("uses entity evidence: an enzyme without cells is an enzyme assay, with cells a viability assay", () => {
    expect(classifyQuery("IC50 of gefitinib on EGFR kinase").type).toBe("ENZYME_INHIBITION_IC50");
    expect(classifyQuery("IC50 of gefitinib in A549 cells").type).toBe("CELL_VIABILITY_IC50");
  });
});

describe("drafting", () => {
  it("uses the query's threshold when it states one, the standard criterion otherwise", () => {
    const stated = runRulesEngine(request("IC50 of doxorubicin in MCF-7 cells below 0.5 µM"));
    expect(stated.hypothesis.statement).toContain("IC50 below 0.5 µM");
    expect((stated.intake_draft as Draft).acceptance_criteria.success_conditions[0]).toMatchObject({
      metric: "IC50",
      operator: "lt",
      threshold: 0.5,
      unit: "µM",
    });
    expect(stated.reasoning_trace.map((s) => s.action)).toContain("rule:threshold_from_query");

    const standard = runRulesEngine(request("qPCR of IL6 expression in HeLa after PX-17"));
    expect(standard.hypothesis.statement).toContain("at least 2-fold");
    expect(standard.reasoning_trace.map((s) => s.action)).toContain("rule:standard_criterion_used");
  });

  it("states the direction of an expression change when the query gives one", () => {
    expect(
      runRulesEngine(request("does PX-17 downregulate MYC mRNA in HeLa (qPCR)")).hypothesis.statement,
    ).toContain("decreases MYC mRNA");
    expect(
      runRulesEngine(request("does PX-17 induce HMOX1 mRNA in HeLa (qPCR)")).hypothesis.statement,
    ).toContain("increases HMOX1 mRNA");
  });

  it("places biosafety by the organisms: K-12 at BSL-1, pathogens at BSL-2, unknown levels at BSL-2", () => {
    const bsl = (query: string) => (runRulesEngine(request(query)).intake_draft as Draft).compliance.bsl;
    expect(bsl("growth curves of E. coli MG1655 in LB at 30 and 37 °C")).toBe("BSL-1");
    expect(bsl("growth curves of E. coli in LB at 30 and 37 °C")).toBe("BSL-2");
    expect(bsl("MIC of PX-17 against S. aureus")).toBe("BSL-2");
    expect(bsl("IC50 of PX-17 on EGFR kinase")).toBe("BSL-1");
  });

  it("flags a BSL-3 organism instead of drafting it at a lower level", () => {
    const output = runRulesEngine(request("MIC of PX-17 against M. tuberculosis H37Rv"));
    expect((output.intake_draft as Draft).compliance.bsl).toBe("BSL-3");
    expect(output.notes[0]).toMatch(/BSL-3.*rejected/);
  });

  it("declares human-derived material for human cell lines and blood", () => {
    const human = runRulesEngine(request("IC50 of PX-17 in HeLa cells"));
    expect((human.intake_draft as Draft).compliance).toMatchObject({
      human_derived_material: true,
      animal_derived_material: false,
    });
    const blood = runRulesEngine(request("Hemolysis of human red blood cells by AMP-5"));
    expect((blood.intake_draft as Draft).compliance.human_derived_material).toBe(true);
    const mouse = runRulesEngine(request("IC50 of PX-17 in RAW 264.7 cells"));
    expect((mouse.intake_draft as Draft).compliance).toMatchObject({
      human_derived_material: false,
      animal_derived_material: true,
    });
  });

  it("fills placeholders, and says so, when the query names too little", () => {
    const output = runRulesEngine(request("MIC please", { experimentType: "MIC_MBC_ASSAY" }));
    const mic = (output.intake_draft as Draft).mic_mbc;
    expect(mic.organism).toBe("Organism to be specified");
    expect(mic.compound_name).toBe("Test compound (name to be specified)");
    expect(output.notes.join(" ")).toMatch(/No organism was recognised/);
  });

  it("asks staff to design a CUSTOM protocol from the query", () => {
    const output = runRulesEngine(request("Western blot for phospho-ERK after trametinib in A375 cells"));
    expect((output.intake_draft as Draft).protocol).toEqual({
      type: "protocol_design_requested",
      protocol_design_brief:
        "Design a protocol for this request: Western blot for phospho-ERK after trametinib in A375 cells",
    });
  });

  it("ignores input beyond the query limit and says so", () => {
    const long = `MIC of PX-17 against S. aureus. ${"x".repeat(MAX_QUERY_CHARS)} Sanger sequencing of pUC19`;
    const output = runRulesEngine(request(long));
    expect(output.experiment_type).toBe("MIC_MBC_ASSAY");
    expect(output.entities.plasmids).toEqual([]);
    expect(output.reasoning_trace[0]?.summary).toMatch(/beyond the limits/);
  });
});

describe("draftWithHypothesis", () => {
  const output = runRulesEngine(request("IC50 of PX-17 in HeLa cells"));
  const written = {
    statement: "PX-17 kills HeLa cells with an IC50 below 1 µM.",
    null_hypothesis: "It does not.",
    rationale: "LLM text.",
  };

  it("replaces the hypothesis in a copy of the draft, from the draft or the whole output", () => {
    const before = structuredClone(output);
    const fromOutput = draftWithHypothesis(output, written);
    const fromDraft = draftWithHypothesis(output.intake_draft, written);
    expect(fromOutput.hypothesis).toEqual(written);
    expect(fromDraft).toEqual(fromOutput);
    expect({ ...fromOutput, hypothesis: output.hypothesis }).toEqual(output.intake_draft);
    expect(output).toEqual(before);
  });

  it("clamps the text to the request's limits", () => {
    const draft = draftWithHypothesis(output, {
      statement: "x ".repeat(800),
      null_hypothesis: "y ".repeat(800),
      rationale: "z ".repeat(1500),
    });
    const hypothesis = draft.hypothesis as { statement: string; null_hypothesis: string; rationale: string };
    expect(hypothesis.statement.length).toBeLessThanOrEqual(1000);
    expect(hypothesis.null_hypothesis.length).toBeLessThanOrEqual(1000);
    expect(hypothesis.rationale.length).toBeLessThanOrEqual(2000);
  });
});

function checkShape(output: RulesEngineOutput): void {
  expect(output.reasoning_trace.map((s) => s.step)).toEqual(output.reasoning_trace.map((_, i) => i + 1));
  expect(output.sources).toEqual([]);
  const draft = output.intake_draft as Draft;
  expect(draft.title.length).toBeGreaterThanOrEqual(5);
  expect(draft.title.length).toBeLessThanOrEqual(200);
  expect(output.hypothesis.statement.length).toBeGreaterThanOrEqual(10);
  expect(output.hypothesis.statement.length).toBeLessThanOrEqual(1000);
  expect(output.hypothesis.rationale.length).toBeLessThanOrEqual(2000);
}

describe("properties", () => {
  const experimentType = fc.option(
    fc.constantFrom(
      "SANGER_PLASMID_VERIFICATION",
      "QPCR_EXPRESSION",
      "CELL_VIABILITY_IC50",
      "ENZYME_INHIBITION_IC50",
      "MICROBIAL_GROWTH_MATRIX",
      "MIC_MBC_ASSAY",
      "ZONE_OF_INHIBITION",
      "CUSTOM",
    ) as fc.Arbitrary<GenerationRequest["experimentType"] & string>,
    { nil: undefined },
  );

  it("never throws on arbitrary strings and is deterministic", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 400, unit: "binary" }),
        fc.string({ maxLength: 200 }),
        experimentType,
        (query, context, type) => {
          const req = request(query, { context, ...(type ? { experimentType: type } : {}) });
          const first = runRulesEngine(req);
          expect(runRulesEngine(req)).toEqual(first);
          checkShape(first);
        },
      ),
      { numRuns: 150 },
    );
  });

  // Strings built from the tokens the patterns look for, to reach the number, list and unit rules.
  const token = fc.constantFrom(
    "1",
    "0.5",
    ",",
    ", ",
    " ",
    "-",
    "uM",
    "ug/mL",
    "MIC",
    "IC50",
    "of",
    "x",
    "10^",
    "%",
    "pH",
    "A",
    "B1",
    ".",
    "(",
    ")",
    "/",
    "and",
    "to",
    "at most",
    "<",
    "≤",
    "mm",
    "zone",
    "°C",
    "h",
    "compound",
    "PX-17",
    "pUC",
    "E. coli",
    "expression",
    "GAPDH",
    "kinase",
    "µ",
    "β",
    "²",
    "ATCC",
    "25922",
    "fold",
    "by",
    "extract",
    "Bacillus",
    "cereus",
    "±",
    "glucose",
  );

  it("never throws on strings of the tokens its patterns read", () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 300 }), experimentType, (tokens, type) => {
        const req = request(tokens.join(""), {
          context: tokens.join(" "),
          ...(type ? { experimentType: type } : {}),
        });
        const first = runRulesEngine(req);
        expect(runRulesEngine(req)).toEqual(first);
        checkShape(first);
      }),
      { numRuns: 100 },
    );
  });
});

describe("a MIC asked without the word MIC", () => {
  it("is a MIC draft whose threshold is the concentration the query names", () => {
    const output = runRulesEngine({
      query: "Can thymol kill Pseudomonas aeruginosa PAO1 at 250 µg/mL?",
      context: "",
      jobType: "hypothesis_generation",
    });
    expect(output.experiment_type).toBe("MIC_MBC_ASSAY");
    expect(output.hypothesis.statement).toContain("250 µg/mL");
    const range = (output.intake_draft.mic_mbc as { concentration_range: { min: number; max: number } })
      .concentration_range;
    expect(range.min).toBeLessThan(250);
    expect(range.max).toBeGreaterThan(250);
  });
});

describe("the direction of a claimed change", () => {
  it("reads the claim, not how the cells were prepared (LPS-stimulated)", () => {
    const output = runRulesEngine({
      query: "Test whether curcumin at 20 µM lowers IL-6 mRNA in LPS-stimulated THP-1 macrophages",
      context: "",
      jobType: "hypothesis_generation",
    });
    expect(output.hypothesis.statement).toContain("decreases IL6 mRNA");
  });
});
