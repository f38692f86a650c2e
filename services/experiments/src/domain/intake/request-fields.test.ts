/**
 * The intake's zod schemas validate what a client sends (second spellings, limits, every error
 * at once); the ExperimentRequest message defines the stored request (decisions.md D348).
 * Until the service validates the typed message, the two describe the same model twice: this
 * test fails when they name different fields, nest differently, or spell an enum differently.
 * The only fields the zod schemas may have alone are the second spellings, which the stored
 * form folds into one field (model.ts), listed once in @petri/fixtures.
 */
import { ExperimentRequestSchema } from "@petri/contracts/experiments";
import { REQUEST_SECOND_SPELLINGS } from "@petri/fixtures";
import { zodMessageMismatches } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { experimentRequestSchema } from "./schema/request.js";

const SECOND_SPELLINGS = REQUEST_SECOND_SPELLINGS;

describe("the intake's zod schemas and the ExperimentRequest message", () => {
  it("the same fields, nesting and enum spellings, apart from the second spellings", () => {
    expect(zodMessageMismatches(experimentRequestSchema, ExperimentRequestSchema).sort()).toEqual(
      [...SECOND_SPELLINGS].sort(),
    );
  });

  it("notices a field one has and the other lacks, and an enum spelled differently", () => {
    const widened = experimentRequestSchema.extend({
      sanger: z.strictObject({ ...experimentRequestSchema.shape.sanger.unwrap().shape, colour: z.string() }),
      privacy: z.enum(["open", "secret"]),
    });
    const extra = zodMessageMismatches(widened, ExperimentRequestSchema).filter(
      (line) => !SECOND_SPELLINGS.includes(line),
    );
    expect(extra.sort()).toEqual(
      [
        ".sanger.colour: not in petri.experiments.v1.SangerSection",
        ".privacy: zod [open,secret], proto [delayed_12mo,delayed_6mo,open,private]",
      ].sort(),
    );
  });
});
