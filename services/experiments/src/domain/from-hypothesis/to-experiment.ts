/**
 * POST /hypotheses/{id}/to-experiment (CreateExperimentFromHypothesis), the pure part: which hypotheses may become an
 * experiment, the experiment request built from one, and the idempotency key it is created
 * with. No I/O.
 *
 * - DRAFT and USED hypotheses may (a hypothesis can seed several experiments; each one counts);
 *   ARCHIVED is 409 invalid_state.
 * - The request: the hypothesis's intake draft, with its experiment_type, its statement and
 *   null hypothesis (these win over the draft's), the title when the draft has none, then the
 *   caller's additional_fields merged deeply on top (objects merge, anything else replaces).
 * - The key: from the caller's Idempotency-Key when one was sent; otherwise from the hypothesis
 *   and the request itself, so retrying the same call (same hypothesis, same additional fields)
 *   replays the first experiment instead of making a second one. To make another experiment
 *   from the same hypothesis on purpose, send other additional fields or a new Idempotency-Key.
 *   The derivation is the one the hypotheses service's PrepareExperimentFromHypothesis used
 *   (D108), so a retry across the change to one call still replays (D349).
 */
import { createHash } from "node:crypto";
import {
  type FieldError,
  InvalidStateError,
  JsonSyntaxError,
  ValidationError,
  canonicalJson,
  parseSafeJson,
} from "@petri/service-kit";
import type { HypothesisView, JsonObject } from "./hypothesis-view.js";

export const CONVERTIBLE_FROM = ["DRAFT", "USED"] as const;
/** additional_fields is a few keys (privacy, compliance, turnaround_budget...). */
export const ADDITIONAL_FIELDS_MAX_BYTES = 64 * 1024;
/** The experiments service's bound on an Idempotency-Key. */
const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

export function assertConvertible(hypothesis: Pick<HypothesisView, "status">): void {
  if (!(CONVERTIBLE_FROM as readonly string[]).includes(hypothesis.status))
    throw new InvalidStateError(
      `the hypothesis is ${hypothesis.status} and cannot become an experiment`,
      hypothesis.status,
      CONVERTIBLE_FROM,
    );
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `over` merged into `base`: objects merge key by key, anything else replaces. New objects. */
export function mergeDeep(base: JsonObject, over: JsonObject): JsonObject {
  const merged: JsonObject = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = merged[key];
    merged[key] = isObject(current) && isObject(value) ? mergeDeep(current, value) : value;
  }
  return merged;
}

/** The additional_fields JSON text ("" for none) as an object, or a 422 naming the field. */
export function parseAdditionalFields(text: string): JsonObject {
  if (text.trim() === "") return {};
  const problem = (message: string): never => {
    const error: FieldError = { field: "additional_fields", code: "invalid_value", message };
    throw new ValidationError("additional_fields is invalid", [error]);
  };
  if (Buffer.byteLength(text, "utf8") > ADDITIONAL_FIELDS_MAX_BYTES)
    problem(`additional_fields must be at most ${ADDITIONAL_FIELDS_MAX_BYTES} bytes`);
  let parsed: unknown;
  try {
    // Nesting bounded and NUL / lone surrogates refused: the fields go into a stored request.
    parsed = parseSafeJson("additional_fields", text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    parsed = undefined;
  }
  if (!isObject(parsed)) return problem("additional_fields must be a JSON object");
  return parsed;
}

/** The POST /experiments body built from the hypothesis and the caller's additional fields. */
export function experimentRequestFor(
  hypothesis: Pick<
    HypothesisView,
    "title" | "statement" | "nullHypothesis" | "experimentType" | "intakeDraft"
  >,
  additionalFields: JsonObject,
): JsonObject {
  const draft: JsonObject = structuredClone(hypothesis.intakeDraft ?? {});
  const draftHypothesis = isObject(draft.hypothesis) ? draft.hypothesis : {};
  const request: JsonObject = {
    ...draft,
    ...(hypothesis.experimentType ? { experiment_type: hypothesis.experimentType } : {}),
    title: typeof draft.title === "string" && draft.title.trim() !== "" ? draft.title : hypothesis.title,
    hypothesis: {
      ...draftHypothesis,
      statement: hypothesis.statement,
      ...(hypothesis.nullHypothesis ? { null_hypothesis: hypothesis.nullHypothesis } : {}),
    },
  };
  return mergeDeep(request, additionalFields);
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 40);

/**
 * The Idempotency-Key the experiment is created with, in a namespace of its own per
 * hypothesis (a key used on POST /experiments never collides with it).
 */
export function toExperimentIdempotencyKey(
  hypothesisId: string,
  clientKey: string,
  request: JsonObject,
): string {
  if (clientKey === "") return `to-experiment:${hypothesisId}:request:${digest(canonicalJson(request))}`;
  if (clientKey.length > IDEMPOTENCY_KEY_MAX_LENGTH || !PRINTABLE_ASCII.test(clientKey))
    throw new ValidationError("the Idempotency-Key is invalid", [
      {
        field: "idempotency_key",
        code: "invalid_value",
        message: `the Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`,
      },
    ]);
  return `to-experiment:${hypothesisId}:key:${digest(clientKey)}`;
}
