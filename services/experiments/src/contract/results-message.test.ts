/**
 * The proto messages petri.experiments.v1.ResultsRecord and AcceptanceEvaluation are the one
 * definition of these models' shape (decisions.md D341): every results record the fixtures'
 * submissions make, and every evaluation of the fixtures' acceptance criteria against them, maps
 * onto its message and back to the same REST JSON (absent values null).
 */
import { readFileSync } from "node:fs";

import { AcceptanceEvaluationSchema, ResultsRecordSchema } from "@petri/contracts/experiments";
import { ABSENT_AS_NULL, fromRestJson, toRestJson } from "@petri/contracts/rest-json";
import { fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import { micRequest } from "@petri/testkit";
import { describe, expect, it } from "vitest";

import { fullBody, minimalBody } from "../../test/support/results.js";
import { type AcceptanceCriteria, evaluateAcceptance } from "../domain/acceptance/index.js";
import {
  buildResultsRecord,
  parseSubmission,
  toAcceptanceResults,
  toStoredResults,
} from "../domain/results/index.js";
import { evaluationForms, evaluationJson, resultsForms } from "./results-message.js";

const example = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../docs/examples/${name}`, import.meta.url), "utf8"));

/** Replicates per condition, so that the evaluation recomputes the reported t-test. */
function replicatesBody(): Record<string, unknown> {
  const od = (condition: string, values: number[]) =>
    values.map((value) => ({ metric: "mic", value, unit: "ug/mL", condition }));
  return {
    ...minimalBody(),
    measurements: [...od("treated", [4, 4.5, 3.8]), ...od("control", [16, 15, 17.5])],
    statistics: { test_used: "Welch t-test", p_value: 0.001 },
    notes: "No contamination seen.",
  };
}

const bodies: Record<string, unknown> = {
  "docs/examples/results.json": example("results.json"),
  "service test minimalBody": minimalBody(),
  "service test fullBody": fullBody(),
  "replicates with a reported t-test": replicatesBody(),
};

const SUBMITTED_AT = new Date("2026-12-03T14:05:00.000Z");

function stored(body: unknown) {
  const parsed = parseSubmission(body);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed));
  const fileIds = parsed.submission.files.map((_, i) => `fil_${i}`);
  return toStoredResults(parsed.submission, { fileIds, submittedAt: SUBMITTED_AT });
}

const rest = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe("ResultsRecord message", () => {
  it.each(Object.entries(bodies))("%s: the record round-trips through the message", (_, body) => {
    const results = stored(body);
    for (const status of ["pending_approval", "completed", "disputed", "resolved"]) {
      const record = buildResultsRecord({
        experimentId: "exp_1",
        status,
        submittedAt: SUBMITTED_AT,
        results,
        files: results.files,
        urlFor: (fileId) => `/files/${fileId}?expires=1&signature=s`,
      });
      const message = fromRestJson(ResultsRecordSchema, rest(record) as never);
      expect(toRestJson(ResultsRecordSchema, message, ABSENT_AS_NULL)).toEqual(rest(record));
      expect(resultsForms(record).results).toEqual(message);
    }
  });
});

const criteria: Record<string, unknown> = {
  "testkit micRequest": micRequest().acceptance_criteria,
  "no criteria": undefined,
  ...Object.fromEntries(
    [...Object.entries(validRequests), ...Object.entries(fullRequests), ...Object.entries(specialRequests)]
      .filter(([, request]) => "acceptance_criteria" in request)
      .map(([name, request]) => [
        `fixtures ${name}`,
        (request as Record<string, unknown>).acceptance_criteria,
      ]),
  ),
};

describe("AcceptanceEvaluation message", () => {
  it.each(Object.entries(criteria))("%s: every evaluation round-trips through the message", (_, given) => {
    for (const body of Object.values(bodies)) {
      const evaluation = evaluateAcceptance(given as AcceptanceCriteria, toAcceptanceResults(stored(body)));
      const json = rest(evaluationJson(evaluation));
      const message = fromRestJson(AcceptanceEvaluationSchema, json as never);
      expect(toRestJson(AcceptanceEvaluationSchema, message, ABSENT_AS_NULL)).toEqual(json);
      expect(evaluationForms(evaluation).evaluation).toEqual(message);
    }
  });

  it("the fixtures reach every verdict and a recomputed test", () => {
    const evaluations = Object.values(criteria).flatMap((given) =>
      Object.values(bodies).map((body) =>
        evaluateAcceptance(given as AcceptanceCriteria, toAcceptanceResults(stored(body))),
      ),
    );
    expect(new Set(evaluations.map((e) => e.verdict))).toEqual(
      new Set(["criteria_met", "criteria_not_met", "indeterminate"]),
    );
    expect(evaluations.some((e) => e.recomputation.status === "computed" && e.recomputation.agreement)).toBe(
      true,
    );
  });
});
