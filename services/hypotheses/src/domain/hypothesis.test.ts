import { InvalidStateError, ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import {
  INTAKE_DRAFT_MAX_BYTES,
  type NewHypothesisInput,
  archiveChanges,
  hasChanges,
  newHypothesisContent,
  patchChanges,
} from "./hypothesis.js";

const input = (change: Partial<NewHypothesisInput> = {}): NewHypothesisInput => ({
  title: "Drug X lowers GENE1",
  statement: "Drug X at 10 uM lowers GENE1 expression in HeLa cells within 24 h.",
  nullHypothesis: "",
  experimentType: "",
  intakeDraftJson: "",
  engineAgent: "",
  engineQuery: "",
  engineResponseJson: "",
  ...change,
});

function fieldErrors(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.fieldErrors.map((e) => `${e.field}:${e.code}`);
    throw error;
  }
  throw new Error("expected a ValidationError");
}

describe("newHypothesisContent", () => {
  it("keeps a manual entry: trimmed text, absent optional fields null", () => {
    expect(newHypothesisContent(input({ title: "  Drug X lowers GENE1 " }))).toEqual({
      title: "Drug X lowers GENE1",
      statement: "Drug X at 10 uM lowers GENE1 expression in HeLa cells within 24 h.",
      nullHypothesis: null,
      experimentType: null,
      intakeDraft: null,
      engineAgent: null,
      engineQuery: null,
      engineResponse: null,
    });
  });

  it("keeps an engine-sourced entry with its draft and metadata", () => {
    const content = newHypothesisContent(
      input({
        nullHypothesis: "Drug X does not change GENE1 expression.",
        experimentType: "QPCR_EXPRESSION",
        intakeDraftJson: JSON.stringify({ title: "GENE1", budget_usd: 900 }),
        engineAgent: "hypothesis_generation",
        engineQuery: "what lowers GENE1?",
        engineResponseJson: JSON.stringify({ sources: [{ title: "Paper", doi: "10.1/x" }] }),
      }),
    );
    expect(content).toMatchObject({
      nullHypothesis: "Drug X does not change GENE1 expression.",
      experimentType: "QPCR_EXPRESSION",
      intakeDraft: { title: "GENE1", budget_usd: 900 },
      engineAgent: "hypothesis_generation",
      engineQuery: "what lowers GENE1?",
      engineResponse: { sources: [{ title: "Paper", doi: "10.1/x" }] },
    });
  });

  it("names every problem at once", () => {
    expect(
      fieldErrors(() =>
        newHypothesisContent(
          input({
            title: " ",
            statement: "x".repeat(5_001),
            experimentType: "PCR",
            intakeDraftJson: "[1]",
            engineResponseJson: "{",
          }),
        ),
      ),
    ).toEqual([
      "title:missing_required",
      "statement:invalid_value",
      "experiment_type:invalid_value",
      "intake_draft:invalid_value",
      "engine_response:invalid_value",
    ]);
  });

  it("refuses an intake draft nested 4,000 levels deep (it would break to-experiment later) and NUL inside it", () => {
    const deep = `{"a":${"[".repeat(4_000)}${"]".repeat(4_000)}}`;
    expect(fieldErrors(() => newHypothesisContent(input({ intakeDraftJson: deep })))).toEqual([
      "intake_draft:too_deep",
    ]);
    expect(
      fieldErrors(() => newHypothesisContent(input({ intakeDraftJson: '{"title":"a\\u0000b"}' }))),
    ).toEqual(["intake_draft.title:invalid_value"]);
  });

  it("bounds the title at 200 characters (not UTF-16 units) and the draft in bytes", () => {
    expect(newHypothesisContent(input({ title: "🧪".repeat(200) })).title).toHaveLength(400);
    expect(fieldErrors(() => newHypothesisContent(input({ title: "a".repeat(201) })))).toEqual([
      "title:invalid_value",
    ]);
    const draft = JSON.stringify({ notes: "x".repeat(INTAKE_DRAFT_MAX_BYTES) });
    expect(fieldErrors(() => newHypothesisContent(input({ intakeDraftJson: draft })))).toEqual([
      "intake_draft:invalid_value",
    ]);
  });
});

describe("patchChanges", () => {
  const draft = { title: "T", statement: "S", status: "DRAFT" as const };

  it("changes only the supplied fields that differ", () => {
    expect(patchChanges(draft, { title: " New " })).toEqual({ title: "New" });
    expect(patchChanges(draft, { statement: "S2", title: "T" })).toEqual({ statement: "S2" });
    expect(patchChanges(draft, { status: "ARCHIVED" })).toEqual({ status: "ARCHIVED" });
    expect(hasChanges(patchChanges(draft, {}))).toBe(false);
  });

  it("refuses any status but ARCHIVED and empty required text", () => {
    expect(fieldErrors(() => patchChanges(draft, { status: "USED" }))).toEqual(["status:invalid_value"]);
    expect(fieldErrors(() => patchChanges(draft, { status: "DRAFT" }))).toEqual(["status:invalid_value"]);
    expect(fieldErrors(() => patchChanges(draft, { title: "", statement: "" }))).toEqual([
      "title:missing_required",
      "statement:missing_required",
    ]);
  });

  it("is DRAFT only: 409 with the status and allowed_from, an empty patch too", () => {
    for (const status of ["USED", "ARCHIVED"] as const) {
      for (const patch of [{ title: "New" }, {}]) {
        let error: unknown;
        try {
          patchChanges({ ...draft, status }, patch);
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(InvalidStateError);
        expect((error as InvalidStateError).details).toEqual({ status, allowed_from: ["DRAFT"] });
      }
    }
  });

  it("reports a bad body before the status", () => {
    expect(fieldErrors(() => patchChanges({ ...draft, status: "USED" }, { title: "" }))).toEqual([
      "title:missing_required",
    ]);
  });
});

describe("archiveChanges", () => {
  it("archives from any status and is idempotent", () => {
    expect(archiveChanges({ status: "DRAFT" })).toEqual({ status: "ARCHIVED" });
    expect(archiveChanges({ status: "USED" })).toEqual({ status: "ARCHIVED" });
    expect(hasChanges(archiveChanges({ status: "ARCHIVED" }))).toBe(false);
  });
});
