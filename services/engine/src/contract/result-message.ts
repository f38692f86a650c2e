/**
 * The engine result and the caller's edit as messages (petri.engine.v1.EngineResult,
 * EditedHypothesis), sent beside their deprecated JSON text (decisions.md D356, as D336).
 * Only when the message writes back exactly the same REST JSON (exactRestMessage, D346): then
 * the typed field never changes what REST shows. A run's result and edit come back from jsonb
 * columns, keys in jsonb's order, so they are checked in that order (`STORED`); the synchronous
 * answer is checked as the pipeline wrote it, in field order.
 */
import {
  type EditedHypothesis,
  EditedHypothesisSchema,
  type EngineResult,
  EngineResultSchema,
} from "@petri/contracts/engine";
import { type RestJsonOptions, exactRestMessage } from "@petri/contracts/rest-json";

/** Documents read back from a jsonb column: PostgreSQL's key order. */
export const STORED: RestJsonOptions = { keys: "jsonb" };

export function resultMessage(result: unknown, options: RestJsonOptions = {}): EngineResult | undefined {
  if (result === null || result === undefined) return undefined;
  return exactRestMessage(EngineResultSchema, result, options);
}

export function editedHypothesisMessage(edited: unknown): EditedHypothesis | undefined {
  if (edited === null || edited === undefined) return undefined;
  return exactRestMessage(EditedHypothesisSchema, edited, STORED);
}
