import { describe, expect, it } from "vitest";

import { validateHypothesis } from "./validate-hypothesis.js";

const GOOD = {
  statement: "Compound X at 10 µM reduces HepG2 viability by at least 50% after 48 h compared with vehicle.",
  null_hypothesis: "Compound X at 10 µM has no effect on HepG2 viability after 48 h compared with vehicle.",
  rationale: "X inhibits a kinase HepG2 cells depend on.",
};

const MEASURABLE = /measurable outcome/;
const DIRECTION = /direction or threshold/;
const CONDITION = /variable you change/;
const ADD_NULL = /Add a null hypothesis/;
const NEGATE = /negation of the statement/;
const SAME_TERMS = /same variables/;

describe("validateHypothesis: validity", () => {
  it("accepts a testable hypothesis with no suggestions", () => {
    expect(validateHypothesis(GOOD)).toEqual({ valid: true, errors: [], suggestions: [] });
  });

  it("requires a statement of 10 to 1000 characters", () => {
    expect(validateHypothesis({})).toEqual({
      valid: false,
      errors: [
        {
          path: "statement",
          code: "missing_required",
          message: "statement is required (10 to 1000 characters)",
        },
      ],
      suggestions: [],
    });
    expect(validateHypothesis({ statement: null }).errors[0]?.code).toBe("missing_required");
    expect(validateHypothesis({ statement: "too short" }).errors).toEqual([
      { path: "statement", code: "invalid_value", message: "statement must be at least 10 characters" },
    ]);
    expect(validateHypothesis({ statement: "x".repeat(1001) }).errors[0]?.message).toBe(
      "statement must be at most 1000 characters",
    );
    expect(validateHypothesis({ statement: "x".repeat(1000) }).valid).toBe(true);
    expect(validateHypothesis({ statement: 12345678901 }).errors[0]?.message).toBe(
      "statement must be text (a JSON string)",
    );
  });

  it("bounds null_hypothesis and rationale and rejects unknown fields", () => {
    const result = validateHypothesis({
      ...GOOD,
      null_hypothesis: "n".repeat(1001),
      rationale: "r".repeat(2001),
      mood: "sure",
    });
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => [e.path, e.code])).toEqual([
      ["null_hypothesis", "invalid_value"],
      ["rationale", "invalid_value"],
      ["mood", "invalid_value"],
    ]);
  });

  it("rejects a body that is not an object", () => {
    for (const body of [null, "a statement", 3, []]) {
      const result = validateHypothesis(body);
      expect(result.valid).toBe(false);
      expect(result.errors[0]).toMatchObject({ path: "", code: "invalid_value" });
    }
  });

  it("suggestions never affect validity", () => {
    const result = validateHypothesis({ statement: "Things happen in the lab sometimes" });
    expect(result.valid).toBe(true);
    expect(result.suggestions.length).toBeGreaterThan(0);
  });
});

describe("validateHypothesis: testability suggestions", () => {
  const suggestionsFor = (statement: string, null_hypothesis?: string) =>
    validateHypothesis({ statement, ...(null_hypothesis === undefined ? {} : { null_hypothesis }) })
      .suggestions;

  it("a measurable outcome: a quantity, a unit or a metric word", () => {
    expect(
      suggestionsFor("The new compound works better than the old one.").some((s) => MEASURABLE.test(s)),
    ).toBe(true);
    for (const statement of [
      "The new compound lowers the MIC against E. coli compared with the old one.",
      "The new compound gives 3 more colonies than the old one.",
      "The new compound lowers expression compared with the old one.",
    ]) {
      expect(
        suggestionsFor(statement).some((s) => MEASURABLE.test(s)),
        statement,
      ).toBe(false);
    }
  });

  it("a direction or threshold", () => {
    expect(
      suggestionsFor("Compound X changes the IC50 of HepG2 cells at 10 µM.").some((s) => DIRECTION.test(s)),
    ).toBe(true);
    for (const statement of [
      "Compound X increases the IC50 of HepG2 cells at 10 µM.",
      "Compound X gives an IC50 of at most 1 µM in HepG2 cells.",
      "Compound X gives an IC50 < 1 µM in HepG2 cells.",
      "Compound X inhibits growth of E. coli at 4 µg/mL.",
    ]) {
      expect(
        suggestionsFor(statement).some((s) => DIRECTION.test(s)),
        statement,
      ).toBe(false);
    }
  });

  it("a named variable and condition", () => {
    expect(
      suggestionsFor("Compound X reduces viability of HepG2 cells.").some((s) => CONDITION.test(s)),
    ).toBe(true);
    for (const statement of [
      "Compound X at 10 µM reduces viability of HepG2 cells.",
      "Compound X reduces viability of HepG2 cells after 24 h.",
      "Compound X reduces viability of HepG2 cells compared with vehicle.",
      "Treated cells show lower viability than untreated cells.",
    ]) {
      expect(
        suggestionsFor(statement).some((s) => CONDITION.test(s)),
        statement,
      ).toBe(false);
    }
  });

  it("a missing null hypothesis", () => {
    expect(suggestionsFor(GOOD.statement).filter((s) => ADD_NULL.test(s))).toHaveLength(1);
    expect(suggestionsFor(GOOD.statement, "   ").some((s) => ADD_NULL.test(s))).toBe(true);
    expect(suggestionsFor(GOOD.statement, GOOD.null_hypothesis)).toEqual([]);
  });

  it("a null hypothesis that is the negation: a negation and the same key terms", () => {
    const notNegated = suggestionsFor(
      GOOD.statement,
      "Compound X at 10 µM reduces HepG2 viability by 20% after 48 h.",
    );
    expect(notNegated.some((s) => NEGATE.test(s))).toBe(true);
    expect(notNegated.some((s) => SAME_TERMS.test(s))).toBe(false);
    const offTopic = suggestionsFor(GOOD.statement, "There is no difference in the weather.");
    expect(offTopic.some((s) => NEGATE.test(s))).toBe(false);
    expect(offTopic.find((s) => SAME_TERMS.test(s))).toContain('"compound"');
    for (const negation of [
      "Compound X at 10 µM does not reduce HepG2 viability after 48 h.",
      "Compound X at 10 µM doesn't change HepG2 viability after 48 h.",
      "HepG2 viability after 48 h is unchanged by compound X at 10 µM.",
      "There is no difference in HepG2 viability between compound X at 10 µM and vehicle after 48 h.",
    ]) {
      const s = suggestionsFor(GOOD.statement, negation);
      expect(
        s.some((x) => NEGATE.test(x) || SAME_TERMS.test(x)),
        negation,
      ).toBe(false);
    }
  });

  it("a question gets a suggestion to phrase it as a claim", () => {
    expect(suggestionsFor("Does compound X at 10 µM reduce HepG2 viability by 50%?")[0]).toMatch(
      /not a question/,
    );
  });

  it("is deterministic", () => {
    const input = { statement: "Bacteria grow in broth", null_hypothesis: "The sky is blue" };
    expect(validateHypothesis(input)).toEqual(validateHypothesis(structuredClone(input)));
  });
});
