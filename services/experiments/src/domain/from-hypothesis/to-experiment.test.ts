import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import {
  assertConvertible,
  experimentRequestFor,
  mergeDeep,
  parseAdditionalFields,
  toExperimentIdempotencyKey,
} from "./to-experiment.js";

const HYPOTHESIS = {
  title: "PX-17 lowers IL6",
  statement: "PX-17 at 10 uM lowers IL6 mRNA at least 2-fold in HepG2 cells.",
  nullHypothesis: "PX-17 does not change IL6 mRNA.",
  experimentType: "QPCR_EXPRESSION" as const,
  intakeDraft: {
    experiment_type: "QPCR_EXPRESSION",
    hypothesis: { statement: "old statement", rationale: "kept" },
    qpcr: { targets: [{ gene_symbol: "IL6" }], number_of_samples: 6 },
    turnaround_budget: { budget_max_usd: 300 },
  },
};

describe("the experiment request built from a hypothesis", () => {
  it("takes the draft, puts the hypothesis's statement, null and type in, and the title when the draft has none", () => {
    expect(experimentRequestFor(HYPOTHESIS, {})).toEqual({
      experiment_type: "QPCR_EXPRESSION",
      title: HYPOTHESIS.title,
      hypothesis: {
        statement: HYPOTHESIS.statement,
        null_hypothesis: HYPOTHESIS.nullHypothesis,
        rationale: "kept",
      },
      qpcr: { targets: [{ gene_symbol: "IL6" }], number_of_samples: 6 },
      turnaround_budget: { budget_max_usd: 300 },
    });
  });

  it("merges the additional fields deeply: objects merge, arrays and values replace", () => {
    const request = experimentRequestFor(HYPOTHESIS, {
      privacy: "private",
      turnaround_budget: { desired_turnaround_days: 14 },
      qpcr: { targets: [{ gene_symbol: "TNF" }] },
    });
    expect(request.privacy).toBe("private");
    expect(request.turnaround_budget).toEqual({ budget_max_usd: 300, desired_turnaround_days: 14 });
    expect(request.qpcr).toEqual({ targets: [{ gene_symbol: "TNF" }], number_of_samples: 6 });
  });

  it("never changes the stored draft", () => {
    const draft = structuredClone(HYPOTHESIS.intakeDraft);
    experimentRequestFor(HYPOTHESIS, { qpcr: { number_of_samples: 12 } });
    expect(HYPOTHESIS.intakeDraft).toEqual(draft);
    expect(mergeDeep({ a: { b: 1 } }, { a: { c: 2 } })).toEqual({ a: { b: 1, c: 2 } });
  });

  it("works without a draft: the hypothesis alone", () => {
    expect(
      experimentRequestFor(
        { ...HYPOTHESIS, intakeDraft: null, nullHypothesis: null, experimentType: null },
        {},
      ),
    ).toEqual({
      title: HYPOTHESIS.title,
      hypothesis: { statement: HYPOTHESIS.statement },
    });
  });

  it("refuses additional fields that are not a JSON object", () => {
    expect(() => parseAdditionalFields("[1]")).toThrow(/additional_fields/);
    expect(() => parseAdditionalFields("nope")).toThrow(/additional_fields/);
    expect(parseAdditionalFields("")).toEqual({});
  });

  it("refuses additional fields nested too deeply, or carrying NUL, naming the field", () => {
    const deep = `{"a":${"[".repeat(4_000)}${"]".repeat(4_000)}}`;
    expect(() => parseAdditionalFields(deep)).toThrow(ValidationError);
    try {
      parseAdditionalFields('{"budget_note":"x\\u0000"}');
      expect.unreachable();
    } catch (error) {
      expect((error as ValidationError).fieldErrors.map((e) => e.field)).toEqual([
        "additional_fields.budget_note",
      ]);
    }
  });
});

describe("the to-experiment idempotency key", () => {
  const request = experimentRequestFor(HYPOTHESIS, {});

  it("is the same for the same hypothesis and request (a retry replays), whatever the key order", () => {
    const reordered = Object.fromEntries(Object.entries(request).reverse());
    expect(toExperimentIdempotencyKey("hyp_a", "", request)).toBe(
      toExperimentIdempotencyKey("hyp_a", "", reordered),
    );
  });

  it("differs for another request, another hypothesis, or the caller's own key", () => {
    const base = toExperimentIdempotencyKey("hyp_a", "", request);
    expect(toExperimentIdempotencyKey("hyp_a", "", { ...request, privacy: "open" })).not.toBe(base);
    expect(toExperimentIdempotencyKey("hyp_b", "", request)).not.toBe(base);
    const own = toExperimentIdempotencyKey("hyp_a", "retry-1", request);
    expect(own).not.toBe(base);
    // The caller's key does not depend on the body: a reuse with another body is the experiments service's 422.
    expect(toExperimentIdempotencyKey("hyp_a", "retry-1", { other: true })).toBe(own);
    expect(own.length).toBeLessThanOrEqual(255);
  });

  it("refuses a malformed caller key", () => {
    expect(() => toExperimentIdempotencyKey("hyp_a", "é", request)).toThrow(/Idempotency-Key/);
    expect(() => toExperimentIdempotencyKey("hyp_a", "x".repeat(256), request)).toThrow(/Idempotency-Key/);
  });
});

describe("which hypotheses may become an experiment", () => {
  it("DRAFT and USED may; ARCHIVED is invalid_state", () => {
    expect(() => assertConvertible({ status: "DRAFT" })).not.toThrow();
    expect(() => assertConvertible({ status: "USED" })).not.toThrow();
    expect(() => assertConvertible({ status: "ARCHIVED" })).toThrow(/ARCHIVED/);
  });
});
