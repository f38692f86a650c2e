/** Submissions and providers as messages (petri.cloudlabs.v1): absent optional values are "". */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type CloudLabProvider as ProviderMessage,
  CloudLabProviderSchema,
  type Submission,
  SubmissionSchema,
  type Translation as TranslationMessage,
  TranslationSchema,
} from "@petri/contracts/cloudlabs";
import type { SubmissionRow } from "../db/schema.js";
import type { CloudLabProvider } from "../domain/plan.js";
import type { Translation } from "../app/translation.js";

const timestamp = (value: Date | null) => (value ? timestampFromDate(value) : undefined);
export const usd = (cents: number) => (cents / 100).toFixed(2);

export function submissionMessage(row: SubmissionRow): Submission {
  return create(SubmissionSchema, {
    id: row.id,
    ownerAccountId: row.owner_account_id,
    experimentId: row.experiment_id,
    providerId: row.provider_id,
    providerSubmissionId: row.provider_submission_id ?? "",
    protocolFormat: row.protocol_format,
    translatedProtocolJson: JSON.stringify(row.translated_protocol),
    status: row.status,
    resultsJson: row.results === null ? "" : JSON.stringify(row.results),
    error: row.error ?? "",
    estimatedCostUsd: usd(Number(row.estimated_cost_cents)),
    estimatedTurnaroundDays: { min: row.turnaround_min_days, max: row.turnaround_max_days },
    version: BigInt(row.version),
    createdAt: timestamp(row.created_at),
    submittedAt: timestamp(row.submitted_at),
    startedAt: timestamp(row.started_at),
    completedAt: timestamp(row.completed_at),
    updatedAt: timestamp(row.updated_at),
    adapter: row.adapter,
  });
}

export function providerMessage(provider: CloudLabProvider): ProviderMessage {
  return create(CloudLabProviderSchema, {
    id: provider.id,
    name: provider.name,
    description: provider.description,
    protocolFormat: provider.protocol_format,
    supportedExperimentTypes: [...provider.supported_experiment_types],
    status: provider.status,
    capabilities: {
      cellLines: [...provider.capabilities.cell_lines],
      plateFormats: [...provider.capabilities.plate_formats],
      detectionMethods: [...provider.capabilities.detection_methods],
    },
    pricing: {
      baseCostUsd: provider.pricing.base_cost_usd.toFixed(2),
      perSampleUsd: provider.pricing.per_sample_usd.toFixed(2),
    },
    turnaroundDays: { ...provider.turnaround_days },
    maxBsl: provider.max_bsl,
  });
}

export function translationMessage(translation: Translation): TranslationMessage {
  return create(TranslationSchema, {
    providerId: translation.providerId,
    protocolFormat: translation.protocolFormat,
    protocolJson: JSON.stringify(translation.protocol),
    estimatedCostUsd: usd(translation.estimatedCostCents),
    estimatedTurnaroundDays: translation.turnaroundDays,
    warnings: translation.warnings,
  });
}
