/**
 * The intake draft and the engine response travel as google.protobuf.Struct beside their JSON
 * text (D-NEW-1): across the wire, the Struct writes the same JSON text, keys in the same order;
 * a document the wire would change travels as text only.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { type Hypothesis as HypothesisMessage, HypothesisSchema } from "@petri/contracts/hypotheses";
import { describe, expect, it } from "vitest";
import type { Hypothesis, JsonObject } from "../domain/hypothesis.js";
import { STRUCT_MAX_CHARS, hypothesisMessage } from "./hypothesis-message.js";

const HYPOTHESIS: Hypothesis = {
  id: "hyp_1",
  ownerAccountId: "usr_1",
  title: "t",
  statement: "s",
  nullHypothesis: null,
  experimentType: null,
  status: "DRAFT",
  intakeDraft: null,
  experimentsCount: 0,
  engineAgent: null,
  engineQuery: null,
  engineResponse: null,
  sourceExperimentId: null,
  version: 1,
  createdAt: new Date("2026-12-16T09:00:00.000Z"),
  updatedAt: new Date("2026-12-16T09:00:00.000Z"),
};

/** Documents as clients send them: jsonb's key order, second spellings, unknown keys, any value. */
const DOCUMENTS: Record<string, JsonObject> = {
  "an engine draft": {
    experiment_type: "MIC_MBC_ASSAY",
    title: "MIC of ciprofloxacin",
    hypothesis: { statement: "s", null_hypothesis: "n", rationale: "r" },
    compliance: { bsl: "BSL-2", human_derived_material: false },
    privacy: "private",
    turnaround_budget: { budget_max_usd: 300, desired_turnaround_days: 14 },
    acceptance_criteria: { statistical_requirements: { significance_level: 0.05 } },
  },
  "a stored request in jsonb order": {
    title: "T",
    privacy: "open",
    metadata: { tags: [], language: "en" },
    replicates: { technical: 3, biological: 2 },
    acceptance_criteria: {
      success_conditions: [{ metric: "MIC", operator: "lte", threshold: { min: 1, max: 8 } }],
    },
  },
  "a client's own shape": {
    budget_usd: 900,
    constraints: { turnaround_days: 7 },
    "2": "numeric keys first",
    notes: [null, true, -1.5e-7, 12345678901234, "é 😀", { nested: [[[]]] }],
    empty: {},
  },
};

const overTheWire = (message: HypothesisMessage) =>
  fromBinary(HypothesisSchema, toBinary(HypothesisSchema, message));

describe("a hypothesis's documents as Structs", () => {
  it.each(Object.entries(DOCUMENTS))("%s writes back its JSON text exactly", (_name, document) => {
    const sent = hypothesisMessage({ ...HYPOTHESIS, intakeDraft: document, engineResponse: document });
    const received = overTheWire(sent);
    expect(received.intakeDraft).toBeDefined();
    expect(JSON.stringify(received.intakeDraft)).toBe(received.intakeDraftJson);
    expect(JSON.stringify(received.engineResponse)).toBe(received.engineResponseJson);
    expect(received.intakeDraftJson).toBe(JSON.stringify(document));
  });

  it("leaves both unset when there is no document", () => {
    const received = overTheWire(hypothesisMessage(HYPOTHESIS));
    expect(received.intakeDraft).toBeUndefined();
    expect(received.engineResponse).toBeUndefined();
    expect(received.intakeDraftJson).toBe("");
  });

  it("sends a document the wire would change as text only: a __proto__ key, a lone surrogate", () => {
    const withProto = JSON.parse('{"a":1,"b":[{"__proto__":{"x":1}}]}') as JsonObject;
    const loneSurrogate = { text: "\ud800" };
    const received = overTheWire(
      hypothesisMessage({ ...HYPOTHESIS, intakeDraft: withProto, engineResponse: loneSurrogate }),
    );
    expect(received.intakeDraft).toBeUndefined();
    expect(received.intakeDraftJson).toBe('{"a":1,"b":[{"__proto__":{"x":1}}]}');
    expect(received.engineResponse).toBeUndefined();
  });

  it("sends a document longer than STRUCT_MAX_CHARS as text only", () => {
    const long = { notes: "x".repeat(STRUCT_MAX_CHARS) };
    const received = overTheWire(hypothesisMessage({ ...HYPOTHESIS, engineResponse: long }));
    expect(received.engineResponse).toBeUndefined();
    expect(received.engineResponseJson).toBe(JSON.stringify(long));
  });
});
