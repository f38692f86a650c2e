/**
 * The proto message petri.experiments.v1.ExperimentRequest is the one definition of the stored
 * experiment request's shape (decisions.md D348): the stored form of every intake fixture,
 * as the service's validation normalises it, maps onto the message and back to exactly the same
 * JSON text, and so do drafts, except one lacking a required list (a repeated field cannot be
 * absent).
 */
import { ExperimentRequestSchema } from "@petri/contracts/experiments";
import { exactRestMessage, fromRestJson, toRestJson } from "@petri/contracts/rest-json";
import { FIXTURE_NOW, clientIntakes, fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";

import { type ValidationMode, validateExperimentRequest } from "../domain/intake/index.js";

/** A growth matrix whose condition values are text as well as numbers (the Value union). */
function textLevels(): unknown {
  const request = structuredClone(fullRequests.MICROBIAL_GROWTH_MATRIX) as Record<string, any>;
  request.microbial_growth.condition_matrix.push({
    variable: "medium",
    values: [{ value: "LB" }, { value: "M9" }],
  });
  return request;
}

const fixtures: Record<string, unknown> = {
  ...Object.fromEntries(
    Object.entries({ validRequests, fullRequests, specialRequests, clientIntakes }).flatMap(
      ([set, requests]) => Object.entries(requests).map(([name, request]) => [`${set}.${name}`, request]),
    ),
  ),
  "condition values as text": textLevels(),
};

/** The stored form (what the service stores and GET returns as `request`), as JSON. */
function stored(body: unknown, mode: ValidationMode = "submit"): unknown {
  const result = validateExperimentRequest(body, { mode, now: FIXTURE_NOW });
  const form = mode === "submit" ? result.request : result.draft;
  if (!result.valid || form === undefined) throw new Error(JSON.stringify(result.errors));
  return JSON.parse(JSON.stringify(form));
}

describe("ExperimentRequest message", () => {
  it.each(Object.entries(fixtures))("%s: the stored form round-trips exactly", (_, body) => {
    const request = stored(body);
    const message = fromRestJson(ExperimentRequestSchema, request as never);
    expect(JSON.stringify(toRestJson(ExperimentRequestSchema, message))).toBe(JSON.stringify(request));
    expect(exactRestMessage(ExperimentRequestSchema, request)).toEqual(message);
  });

  it("the fixtures hold every section, the optional lists both absent and given, and both unions", () => {
    const requests = Object.values(fixtures).map((body) => stored(body) as Record<string, unknown>);
    const keys = new Set(requests.flatMap((request) => Object.keys(request)));
    expect([...keys].sort()).toEqual(ExperimentRequestSchema.fields.map((f) => f.name).sort());
    const text = JSON.stringify(requests);
    expect(text).toMatch(/"critical_parameters":\[/);
    expect(text).toMatch(/"notification_events":\[/);
    expect(text).toMatch(/"template_parameters":\{/);
    expect(text).toMatch(/"threshold":\{"min"/);
    expect(text).toMatch(/"threshold":\d/);
    expect(text).toMatch(/"values":\[\{"value":"LB"\}/);
  });

  it("drafts round-trip exactly, required fields absent", () => {
    const drafts = [
      { experiment_type: "QPCR_EXPRESSION" },
      { title: "A draft with a title only" },
      {
        experiment_type: "CUSTOM",
        custom_protocol: {
          steps: [{ action: "Seed the cells" }],
          equipment_required: [{ name: "Incubator" }],
        },
      },
      { experiment_type: "SANGER_PLASMID_VERIFICATION", sanger: { primers: [{ name: "M13F" }] } },
    ];
    for (const body of drafts) {
      const draft = stored(body, "draft");
      expect(exactRestMessage(ExperimentRequestSchema, draft), JSON.stringify(draft)).toBeDefined();
    }
  });

  it("a draft that lacks a required list does not fit exactly (the message would write [])", () => {
    const drafts = [
      { experiment_type: "QPCR_EXPRESSION", qpcr: { sample_type: "cDNA" } },
      { experiment_type: "CUSTOM", custom_protocol: { steps: [{ action: "Seed the cells" }] } },
    ];
    for (const body of drafts)
      expect(exactRestMessage(ExperimentRequestSchema, stored(body, "draft"))).toBeUndefined();
  });
});
