/**
 * The gateway's documentation schema of the experiment request (what the OpenAPI document
 * shows for POST /experiments, /validate and /estimate) describes the REST body; the proto
 * message petri.experiments.v1.ExperimentRequest is the one definition of the request the
 * service stores and returns (decisions.md D348). This test fails when the document names a
 * field the message lacks or the other way round, nests differently, or spells an enum value
 * differently. The differences it may show are the body's second spellings (listed once in
 * @petri/fixtures, for the service's validating schemas too). Every fixture body the service
 * accepts must be one the document describes: a client generated from the document would
 * otherwise refuse a valid request.
 */
import { ExperimentRequestSchema } from "@petri/contracts/experiments";
import {
  REQUEST_SECOND_SPELLINGS,
  clientIntakes,
  fullRequests,
  specialRequests,
  validRequests,
} from "@petri/fixtures";
import { zodMessageMismatches } from "@petri/testkit";
import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { ExperimentRequestDocumentation } from "./experiment-request.js";

describe("the documented experiment request and the ExperimentRequest message", () => {
  it("have the same fields, nesting and enum spellings, apart from the body's second spellings", () => {
    expect(zodMessageMismatches(ExperimentRequestDocumentation, ExperimentRequestSchema).sort()).toEqual(
      [...REQUEST_SECOND_SPELLINGS].sort(),
    );
  });

  it("notices a documented field the message lacks", () => {
    const widened = ExperimentRequestDocumentation.extend({ colour: z.string().optional() });
    expect(zodMessageMismatches(widened, ExperimentRequestSchema)).toContain(
      ".colour: not in petri.experiments.v1.ExperimentRequest",
    );
  });

  const fixtures = Object.entries({ validRequests, fullRequests, specialRequests, clientIntakes }).flatMap(
    ([set, requests]) => Object.entries(requests).map(([name, body]) => [`${set}.${name}`, body] as const),
  );

  it.each(fixtures)("%s, a body the service accepts, is one the document describes", (_, body) => {
    const described = ExperimentRequestDocumentation.safeParse(body);
    expect(described.success ? [] : described.error.issues).toEqual([]);
  });
});
