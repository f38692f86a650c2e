/**
 * The results record and the acceptance evaluation as messages (petri.experiments.v1.ResultsRecord,
 * AcceptanceEvaluation). They travel typed and, while a gateway built before may run, as JSON text
 * too (decisions.md D342). A value travels typed only when its message writes back exactly the
 * REST JSON the domain built, so the typed field never changes what REST shows.
 */
import {
  type AcceptanceEvaluation,
  AcceptanceEvaluationSchema,
  type ResultsRecord,
  ResultsRecordSchema,
} from "@petri/contracts/experiments";
import { ABSENT_AS_NULL, exactRestMessage } from "@petri/contracts/rest-json";

import type { AcceptanceEvaluation as DomainEvaluation } from "../domain/acceptance/index.js";
import type { ResultsRecord as DomainResultsRecord } from "../domain/results/index.js";

/** "successConditions" -> "success_conditions". */
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The acceptance evaluation with the API's snake_case field names. Keys of `byCondition` are
 * the operator's condition labels (data, not field names) and stay as they are.
 */
export function evaluationJson(value: unknown, dataKeys = false): unknown {
  if (Array.isArray(value)) return value.map((item) => evaluationJson(item));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      dataKeys ? key : snake(key),
      evaluationJson(inner, !dataKeys && key === "byCondition"),
    ]),
  );
}

/** The results record's two forms: JSON text and, when it says the record exactly, the message. */
export function resultsForms(record: DomainResultsRecord): { resultsJson: string; results?: ResultsRecord } {
  return {
    resultsJson: JSON.stringify(record),
    results: exactRestMessage(ResultsRecordSchema, record, ABSENT_AS_NULL),
  };
}

/** The evaluation's two forms, as resultsForms. */
export function evaluationForms(evaluation: DomainEvaluation): {
  evaluationJson: string;
  evaluation?: AcceptanceEvaluation;
} {
  const json = evaluationJson(evaluation);
  return {
    evaluationJson: JSON.stringify(json),
    evaluation: exactRestMessage(AcceptanceEvaluationSchema, json, ABSENT_AS_NULL),
  };
}
