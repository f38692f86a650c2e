/**
 * Cloud-labs messages -> the public JSON of /cloud-labs (docs/api.md, Cloud labs). Pure; each
 * object in a fixed key order. The interpretation is written from its message by
 * @petri/contracts/rest-json (D355), or from its JSON text from a service built before it; a
 * protocol and a lab's results are free-form documents the service sends as JSON text.
 */
import {
  type CloudLabProvider,
  type IntakeInterpretation,
  IntakeInterpretationSchema,
  type Submission,
  type Translation,
} from "@petri/contracts/cloudlabs";
import { ABSENT_AS_NULL } from "@petri/contracts/rest-json";
import { type JsonObject, parseObjectText, requiredObjectText, typedOrRequiredText } from "./json-text.js";
import { isoOrNull } from "./timestamps.js";

const PROTOCOL = { service: "cloudlabs", what: "a protocol" } as const;

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

/** POST /cloud-labs/interpret's interpretation: typed since D355, else the JSON text. */
export function interpretationJson(answer: {
  readonly interpretation?: IntakeInterpretation;
  readonly interpretationJson: string;
}): JsonObject {
  return typedOrRequiredText(
    IntakeInterpretationSchema,
    answer.interpretation,
    answer.interpretationJson,
    { service: "cloudlabs", what: "an interpretation" },
    ABSENT_AS_NULL,
  );
}

export function translationJson(translation: Translation | undefined) {
  if (!translation) throw new Error("the cloudlabs service returned no translation");
  return {
    provider_id: translation.providerId,
    protocol_format: translation.protocolFormat,
    protocol: requiredObjectText(translation.protocolJson, PROTOCOL),
    estimated_cost_usd: Number(translation.estimatedCostUsd),
    estimated_turnaround_days: turnaroundJson(translation.estimatedTurnaroundDays),
    warnings: [...translation.warnings],
  };
}

export function submissionJson(submission: Submission | undefined) {
  if (!submission) throw new Error("the cloudlabs service returned no submission");
  return {
    id: submission.id,
    experiment_id: submission.experimentId,
    provider_id: submission.providerId,
    provider_submission_id: submission.providerSubmissionId || null,
    protocol_format: submission.protocolFormat,
    translated_protocol: requiredObjectText(submission.translatedProtocolJson, PROTOCOL),
    status: submission.status,
    results: parseObjectText(submission.resultsJson, { service: "cloudlabs", what: "results" }),
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
