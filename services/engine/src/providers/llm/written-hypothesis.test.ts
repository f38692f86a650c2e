import { describe, expect, it } from "vitest";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { RATIONALE_MAX_CHARS, checkReply, replyJsonSchema } from "./written-hypothesis.js";

const valid = {
  statement: "Synthetic compound PT-0001 lowers the growth of the placeholder organism.",
  null_hypothesis: "Synthetic compound PT-0001 does not change the growth of the placeholder organism.",
  rationale: "A fixture rationale.",
  experiment_type: "MIC_MBC_ASSAY",
};

function problemsOf(content: string | null, sourceCount = 0): string[] {
  const check = checkReply(content, sourceCount);
  if (check.ok) throw new Error("expected the reply to be rejected");
  return check.problems;
}

describe("replyJsonSchema", () => {
  it("is a strict-mode object schema: every key required, no extra keys, no dialect", () => {
    const schema = replyJsonSchema();
    expect(schema).not.toHaveProperty("$schema");
    expect(schema).toMatchObject({
      type: "object",
      additionalProperties: false,
      required: ["statement", "null_hypothesis", "rationale", "experiment_type"],
    });
    expect(JSON.stringify(schema)).toContain('"null"');
    for (const type of EXPERIMENT_TYPES) expect(JSON.stringify(schema)).toContain(type);
  });
});

describe("checkReply", () => {
  it("accepts a valid reply, trimmed, and drops a null experiment type", () => {
    expect(checkReply(JSON.stringify(valid), 0)).toEqual({ ok: true, value: valid });
    const padded = { ...valid, statement: `  ${valid.statement}  `, experiment_type: null };
    const check = checkReply(JSON.stringify(padded), 0);
    expect(check).toEqual({
      ok: true,
      value: {
        statement: valid.statement,
        null_hypothesis: valid.null_hypothesis,
        rationale: valid.rationale,
      },
    });
  });

  it("accepts JSON inside a Markdown code fence", () => {
    expect(checkReply("```json\n" + JSON.stringify(valid) + "\n```", 0).ok).toBe(true);
  });

  it("rejects empty, non-JSON and schema-violating replies with the problems", () => {
    expect(problemsOf(null)[0]).toContain("empty");
    expect(problemsOf("Here is my hypothesis")[0]).toContain("not valid JSON");
    const problems = problemsOf(
      JSON.stringify({ ...valid, statement: " ", rationale: 3, experiment_type: "PCR" }),
    );
    expect(problems.some((p) => p.startsWith("statement:"))).toBe(true);
    expect(problems.some((p) => p.startsWith("rationale:"))).toBe(true);
    expect(problems.some((p) => p.startsWith("experiment_type:"))).toBe(true);
    expect(
      problemsOf(JSON.stringify({ ...valid, rationale: "x".repeat(RATIONALE_MAX_CHARS + 1) }))[0],
    ).toContain("at most");
  });

  it("rejects DOIs and URLs: the model may not bring its own citations", () => {
    for (const rationale of ["See 10.5555/petri-test.9999.", "See doi:10.5555/x", "See https://example.org"])
      expect(problemsOf(JSON.stringify({ ...valid, rationale }), 1)[0]).toContain(
        "must not contain DOIs or URLs",
      );
  });

  it("accepts citations of the given sources only", () => {
    expect(checkReply(JSON.stringify({ ...valid, rationale: "As in [1] and [2]." }), 2).ok).toBe(true);
    expect(problemsOf(JSON.stringify({ ...valid, rationale: "As in [3]." }), 2)[0]).toContain(
      "only sources [1] to [2]",
    );
    expect(problemsOf(JSON.stringify({ ...valid, rationale: "As in [1]." }), 0)[0]).toContain(
      "no sources were given",
    );
  });
});
