/**
 * The submission's zod schema validates what an operator sends (lenient spellings, limits, every
 * error at once; decisions.md D343); the ResultsRecord message defines what the record carries
 * on. The parts the record takes over as sent must not drift apart: this test fails when they
 * name different fields, nest differently, or spell the confidence levels differently.
 */
import { ConfidenceLevelSchema, ResultsRecord_StructuredDataSchema } from "@petri/contracts/experiments";
import { restSpellings } from "@petri/contracts/rest-json";
import { zodMessageMismatches } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { RESULT_LIMITS } from "./limits.js";
import { submissionSchema } from "./schema.js";

const submission = submissionSchema(RESULT_LIMITS);

describe("the submission's zod schema and the ResultsRecord message", () => {
  it("measurements and statistics: the same fields and nesting as structured_data", () => {
    const structured = z.strictObject({
      measurements: submission.shape.measurements,
      statistics: submission.shape.statistics,
    });
    expect(zodMessageMismatches(structured, ResultsRecord_StructuredDataSchema)).toEqual([]);
  });

  it("notices a measurement field the message lacks", () => {
    const measurement = z.strictObject({ metric: z.string(), value: z.number(), colour: z.string() });
    const structured = z.strictObject({
      measurements: z.array(measurement),
      statistics: submission.shape.statistics,
    });
    expect(zodMessageMismatches(structured, ResultsRecord_StructuredDataSchema)).toEqual([
      ".measurements.colour: not in petri.experiments.v1.ResultsRecord.Measurement",
      ".measurements.unit: not in the zod schema",
      ".measurements.condition: not in the zod schema",
    ]);
  });

  it("confidence_level: the spellings of the ConfidenceLevel enum", () => {
    const spellings = [...restSpellings(ConfidenceLevelSchema).toName.keys()];
    expect(submission.shape.confidence_level.out.options).toEqual(spellings);
  });
});
