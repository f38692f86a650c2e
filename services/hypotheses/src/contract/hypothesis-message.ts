/**
 * Hypotheses as messages (petri.hypotheses.v1.Hypothesis): absent optional values are "". The
 * intake draft and the engine response are free-form documents a client sent: they travel as
 * google.protobuf.Struct (protobuf-es gives it as the JSON object itself), and as JSON text
 * while gateways built before may run (D-NEW-1). A Struct keeps any JSON object's keys in their
 * order and holds every JSON value, so it writes back exactly what the jsonb column returned,
 * with two exceptions, which travel as text only: a key "__proto__" (protobuf-es decodes a
 * Struct by assigning keys, which drops it) and a string that is not well-formed UTF-16 (the
 * wire's UTF-8 replaces a lone surrogate; the text escapes it). Validation refuses the second
 * (D171) but not the first. And a document longer than STRUCT_MAX_CHARS travels as text only:
 * protobuf-es spends about a hundred times longer on a Struct than on its text (measured in
 * D-NEW-1), and a listing page may hold a hundred 256 KiB engine responses.
 */
import { create } from "@bufbuild/protobuf";
import type { JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Hypothesis as HypothesisMessage, HypothesisSchema } from "@petri/contracts/hypotheses";
import { unsafeTextReason } from "@petri/service-kit";
import type { Hypothesis } from "../domain/hypothesis.js";

const jsonText = (value: Record<string, unknown> | null) => (value === null ? "" : JSON.stringify(value));

/** Whether a JSON value crosses the wire as a Struct unchanged (see above). */
function survivesAsStruct(value: unknown): boolean {
  if (typeof value === "string") return unsafeTextReason(value) !== "ill_formed_unicode";
  if (Array.isArray(value)) return value.every(survivesAsStruct);
  if (value === null || typeof value !== "object") return true;
  return Object.entries(value).every(([key, item]) => key !== "__proto__" && survivesAsStruct(item));
}

/**
 * Room for the engine's results (its query corpus: 4,829 to 13,614 characters, drafts up to
 * 10,107; five verified sources add about 3,000) and for any intake draft but the largest.
 */
export const STRUCT_MAX_CHARS = 32 * 1024;

/** A document parsed from JSON (the client's text, or the jsonb column): a Struct as it is. */
const struct = (value: Record<string, unknown> | null, text: string) =>
  value !== null && text.length <= STRUCT_MAX_CHARS && survivesAsStruct(value)
    ? (value as JsonObject)
    : undefined;

export function hypothesisMessage(hypothesis: Hypothesis): HypothesisMessage {
  const intakeDraftJson = jsonText(hypothesis.intakeDraft);
  const engineResponseJson = jsonText(hypothesis.engineResponse);
  return create(HypothesisSchema, {
    id: hypothesis.id,
    ownerAccountId: hypothesis.ownerAccountId,
    title: hypothesis.title,
    statement: hypothesis.statement,
    nullHypothesis: hypothesis.nullHypothesis ?? "",
    experimentType: hypothesis.experimentType ?? "",
    status: hypothesis.status,
    intakeDraftJson,
    experimentsCount: hypothesis.experimentsCount,
    engineAgent: hypothesis.engineAgent ?? "",
    engineQuery: hypothesis.engineQuery ?? "",
    engineResponseJson,
    sourceExperimentId: hypothesis.sourceExperimentId ?? "",
    intakeDraft: struct(hypothesis.intakeDraft, intakeDraftJson),
    engineResponse: struct(hypothesis.engineResponse, engineResponseJson),
    version: BigInt(hypothesis.version),
    createdAt: timestampFromDate(hypothesis.createdAt),
    updatedAt: timestampFromDate(hypothesis.updatedAt),
  });
}

/**
 * The hypothesis as HypothesisSaved carries it: the message without the engine's response,
 * which may be large and which no consumer reads.
 */
export function savedHypothesisMessage(hypothesis: Hypothesis): HypothesisMessage {
  return hypothesisMessage({ ...hypothesis, engineResponse: null });
}
