/**
 * Cloud-labs messages -> the public JSON of /cloud-labs (docs/api.md, Cloud labs). Pure; each
 * object in a fixed key order. The interpretation is written from its message by
 * @petri/contracts/rest-json, a protocol and a lab's results from their Struct (D-NEW-1); from
 * a service built before those fields, the JSON text is passed on.
 */
import {
  type CloudLabProvider,
  type IntakeInterpretation,
  IntakeInterpretationSchema,
  type Submission,
  type Translation,
} from "@petri/contracts/cloudlabs";
import { ABSENT_AS_NULL, toRestJson } from "@petri/contracts/rest-json";
import { isoOrNull } from "./timestamps.js";

type JsonObject = Record<string, unknown>;

function parseObject(text: string, what: string): JsonObject {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Error(`the cloudlabs service sent ${what} that is not a JSON object`);
  return value as JsonObject;
}

/**
 * A free-form document: its Struct when the service sent one (protobuf-es gives a Struct field
 * as the JSON object it says), else its JSON text.
 */
const documentJson = (struct: JsonObject | undefined, text: string, what: string): JsonObject =>
  struct ?? parseObject(text, what);

export const turnaroundJson = (value: { min: number; max: number } | undefined) => ({
  min: value?.min ?? 0,
  max: value?.max ?? 0,
});

export function providerSummaryJson(provider: CloudLabProvider) {
  return {
    id: provider.id,
    name: provider.name,
    protocol_format: provider.protocolFormat,
    supported_experiment_types: [...provider.supportedExperimentTypes],
    status: provider.status,
  };
}

export function providerJson(provider: CloudLabProvider | undefined) {
  if (!provider) throw new Error("the cloudlabs service returned no provider");
  return {
    ...providerSummaryJson(provider),
    description: provider.description,
    capabilities: {
      cell_lines: [...(provider.capabilities?.cellLines ?? [])],
      plate_formats: [...(provider.capabilities?.plateFormats ?? [])],
      detection_methods: [...(provider.capabilities?.detectionMethods ?? [])],
    },
    pricing: {
      base_cost_usd: Number(provider.pricing?.baseCostUsd ?? 0),
      per_sample_usd: Number(provider.pricing?.perSampleUsd ?? 0),
    },
    turnaround_days: turnaroundJson(provider.turnaroundDays),
    max_bsl: provider.maxBsl,
  };
}

/** POST /cloud-labs/interpret's interpretation: typed since D-NEW-1, else the JSON text. */
export function interpretationJson(answer: {
  readonly interpretation?: IntakeInterpretation;
  readonly interpretationJson: string;
}): JsonObject {
  return answer.interpretation
    ? toRestJson(IntakeInterpretationSchema, answer.interpretation, ABSENT_AS_NULL)
    : parseObject(answer.interpretationJson, "an interpretation");
}

export function translationJson(translation: Translation | undefined) {
  if (!translation) throw new Error("the cloudlabs service returned no translation");
  return {
    provider_id: translation.providerId,
    protocol_format: translation.protocolFormat,
    protocol: documentJson(translation.protocol, translation.protocolJson, "a protocol"),
    estimated_cost_usd: Number(translation.estimatedCostUsd),
    estimated_turnaround_days: turnaroundJson(translation.estimatedTurnaroundDays),
    warnings: [...translation.warnings],
  };
}

/** The lab's results: the Struct, else the JSON text; null until the submission completed. */
function resultsJson(submission: Submission): JsonObject | null {
  if (submission.results) return submission.results;
  return submission.resultsJson ? parseObject(submission.resultsJson, "results") : null;
}

export function submissionJson(submission: Submission | undefined) {
  if (!submission) throw new Error("the cloudlabs service returned no submission");
  return {
    id: submission.id,
    experiment_id: submission.experimentId,
    provider_id: submission.providerId,
    provider_submission_id: submission.providerSubmissionId || null,
    protocol_format: submission.protocolFormat,
    translated_protocol: documentJson(
      submission.translatedProtocol,
      submission.translatedProtocolJson,
      "a protocol",
    ),
    status: submission.status,
    results: resultsJson(submission),
    error: submission.error || null,
    adapter: submission.adapter,
    estimated_cost_usd: Number(submission.estimatedCostUsd),
    estimated_turnaround_days: turnaroundJson(submission.estimatedTurnaroundDays),
    created_at: isoOrNull(submission.createdAt)!,
    submitted_at: isoOrNull(submission.submittedAt),
    started_at: isoOrNull(submission.startedAt),
    completed_at: isoOrNull(submission.completedAt),
  };
}
