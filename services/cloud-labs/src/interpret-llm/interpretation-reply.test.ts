import { checkJsonReply } from "@petri/llm";
import { fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { interpretIntake } from "../domain/interpret/index.js";
import type { Interpretation } from "../domain/plan.js";
import {
  MAX_NOTES,
  checkAgainstRules,
  interpretationJsonSchema,
  interpretationReplySchema,
} from "./interpretation-reply.js";

function rulesReading(intake: unknown): Interpretation {
  const read = interpretIntake(intake);
  if ("problems" in read) throw new Error(`fixture intake has problems: ${JSON.stringify(read.problems)}`);
  return read.interpretation;
}

const reading = rulesReading(specialRequests.micCloudLab);

function check(reply: unknown) {
  return checkJsonReply(JSON.stringify(reply), interpretationReplySchema());
}

function problemsOf(reply: unknown): string[] {
  const result = check(reply);
  if (result.ok) throw new Error("expected the reply to be rejected");
  return result.problems;
}

function withParameters(parameters: Partial<Interpretation["parameters"]>) {
  return { ...reading, parameters: { ...reading.parameters, ...parameters } };
}

/** Every object schema in strict form: all properties required, no others allowed. */
function strictObjects(schema: unknown, path = "$"): string[] {
  if (schema === null || typeof schema !== "object") return [];
  const node = schema as Record<string, unknown>;
  const faults: string[] = [];
  if (node.type === "object") {
    const keys = Object.keys((node.properties as object | undefined) ?? {});
    if (node.additionalProperties !== false) faults.push(`${path}: additionalProperties`);
    if (
      JSON.stringify([...((node.required as string[] | undefined) ?? [])].sort()) !==
      JSON.stringify(keys.sort())
    )
      faults.push(`${path}: required`);
  }
  for (const [key, child] of Object.entries(node)) faults.push(...strictObjects(child, `${path}.${key}`));
  return faults;
}

describe("interpretationJsonSchema", () => {
  it("is a strict-mode schema with no dialect and no numeric bounds strict servers refuse", () => {
    const schema = interpretationJsonSchema();
    expect(schema).not.toHaveProperty("$schema");
    expect(strictObjects(schema)).toEqual([]);
    const text = JSON.stringify(schema);
    for (const type of EXPERIMENT_TYPES) expect(text).toContain(type);
    expect(text).not.toContain("9007199254740991");
  });
});

describe("interpretationReplySchema", () => {
  it("accepts the rules interpreter's own reading of every fixture intake", () => {
    const intakes = [
      specialRequests.micCloudLab,
      ...Object.values(validRequests),
      ...Object.values(fullRequests),
    ];
    for (const intake of intakes) {
      const rules = rulesReading(intake);
      expect(check(rules)).toEqual({ ok: true, value: rules });
    }
  });

  it("trims texts, rounds the confidence and writes micro with the micro sign", () => {
    const compound = reading.parameters.compounds[0]!;
    const result = check({
      ...withParameters({ compounds: [{ ...compound, name: `  ${compound.name} `, unit: "ug/mL" }] }),
      confidence: 0.8349,
    });
    expect(result.ok && result.value.parameters.compounds[0]).toEqual({ ...compound, unit: "µg/mL" });
    expect(result.ok && result.value.confidence).toBe(0.83);
    expect(check(withParameters({ compounds: [{ ...compound, unit: "μM" }] })).ok).toBe(true);
  });

  it("rejects an unknown experiment type, detection method or unit", () => {
    expect(problemsOf({ ...reading, experiment_type: "PCR" })[0]).toMatch(/^experiment_type: must be one of/);
    expect(problemsOf(withParameters({ detection_method: "smell" as never }))[0]).toMatch(
      /^parameters\.detection_method:/,
    );
    const compound = { name: "PX-17", concentrations: [1], unit: "mg/L" };
    expect(problemsOf(withParameters({ compounds: [compound] }))[0]).toMatch(
      /^parameters\.compounds\.0\.unit:/,
    );
  });

  it("accepts only finite, positive, bounded numbers", () => {
    const compound = reading.parameters.compounds[0]!;
    // JSON.parse reads 1e400 as Infinity.
    const infinite = checkJsonReply(
      JSON.stringify(withParameters({ compounds: [{ ...compound, concentrations: [64] }] })).replace(
        "[64]",
        "[1e400]",
      ),
      interpretationReplySchema(),
    );
    expect(infinite.ok).toBe(false);
    expect(problemsOf(withParameters({ compounds: [{ ...compound, concentrations: [0] }] }))[0]).toContain(
      "greater than 0",
    );
    expect(problemsOf(withParameters({ replicates: 2.5 })).length).toBeGreaterThan(0);
    expect(problemsOf(withParameters({ replicates: 37 })).length).toBeGreaterThan(0);
    expect(problemsOf(withParameters({ incubation_hours: 24 * 31 })).length).toBeGreaterThan(0);
    expect(problemsOf({ ...reading, confidence: 1.5 })[0]).toContain("from 0 to 1");
  });

  it("bounds every list and every text", () => {
    const organism = { name: "Placeholder organism", strain: null };
    expect(problemsOf(withParameters({ organisms: Array(9).fill(organism) }))[0]).toContain(
      "at most 8 organisms",
    );
    const compound = {
      name: "PX-17",
      concentrations: Array.from({ length: 25 }, (_, i) => 25 - i),
      unit: "µM",
    };
    expect(problemsOf(withParameters({ compounds: [compound] }))[0]).toContain("at most 24 concentrations");
    expect(problemsOf({ ...reading, notes: Array(MAX_NOTES + 1).fill("A note.") })[0]).toContain(
      "at most 20 notes",
    );
    expect(problemsOf(withParameters({ organisms: [{ name: "x".repeat(201), strain: null }] }))[0]).toContain(
      "at most 200 characters",
    );
    expect(problemsOf({ ...reading, notes: ["two\nlines"] })[0]).toContain("one line");
    expect(problemsOf(withParameters({ organisms: [{ name: " ", strain: null }] }))[0]).toContain(
      "must not be empty",
    );
  });
});

describe("checkAgainstRules", () => {
  it("holds the reading to the experiment type the intake states", () => {
    expect(checkAgainstRules(reading, reading)).toEqual([]);
    expect(checkAgainstRules({ ...reading, experiment_type: "CUSTOM" }, reading)).toEqual([
      "experiment_type: the intake states MIC_MBC_ASSAY; keep it",
    ]);
  });
});
