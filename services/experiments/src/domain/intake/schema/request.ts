/**
 * The experiment request as sent: every accepted top-level field and its schema.
 *
 * Unknown top-level fields are rejected with `invalid_value` (decision; docs/intake-model.md allows
 * rejecting or warning — rejecting keeps typos such as `turnarround_days` from being silently
 * ignored). `experiment_type` is checked by the validator itself (case-insensitive, so that an
 * unknown value gets `invalid_experiment_type` rather than a generic enum message).
 */
import { z } from "zod";

import { type ExperimentTypeName, TURNAROUND_PRIORITIES } from "@petri/contracts/vocabulary";
import {
  acceptanceCriteriaSchema,
  communicationPreferencesSchema,
  complianceSchema,
  constraintsSchema,
  deliverablesSchema,
  hypothesisSchema,
  materialsSchema,
  metadataSchema,
  privacySchema,
  replicatesSchema,
  titleSchema,
  turnaroundBudgetSchema,
  turnaroundDays,
} from "./common.js";
import { customProtocolSchema, protocolSchema } from "./protocol.js";
import {
  cellViabilitySchema,
  enzymeInhibitionSchema,
  micMbcAssaySchema,
  micMbcSchema,
  microbialGrowthSchema,
  qpcrSchema,
  sangerSchema,
  zoneOfInhibitionSchema,
} from "./types.js";

/** Type sections by their request key. */
export const TYPE_SECTION_SCHEMAS = {
  sanger: sangerSchema,
  qpcr: qpcrSchema,
  cell_viability: cellViabilitySchema,
  enzyme_inhibition: enzymeInhibitionSchema,
  microbial_growth: microbialGrowthSchema,
  mic_mbc: micMbcSchema,
  mic_mbc_assay: micMbcAssaySchema,
  zone_of_inhibition: zoneOfInhibitionSchema,
  custom_protocol: customProtocolSchema,
} as const;

export type TypeSectionKey = keyof typeof TYPE_SECTION_SCHEMAS;

/** The section keys that carry each type's parameters (MIC accepts either form, or both). */
export const TYPE_SECTIONS: Record<ExperimentTypeName, readonly TypeSectionKey[]> = {
  SANGER_PLASMID_VERIFICATION: ["sanger"],
  QPCR_EXPRESSION: ["qpcr"],
  CELL_VIABILITY_IC50: ["cell_viability"],
  ENZYME_INHIBITION_IC50: ["enzyme_inhibition"],
  MICROBIAL_GROWTH_MATRIX: ["microbial_growth"],
  MIC_MBC_ASSAY: ["mic_mbc", "mic_mbc_assay"],
  ZONE_OF_INHIBITION: ["zone_of_inhibition"],
  CUSTOM: ["custom_protocol"],
};

/** Every top-level field except experiment_type, with its schema. */
export const REQUEST_SECTION_SCHEMAS = {
  metadata: metadataSchema,
  title: titleSchema,
  hypothesis: hypothesisSchema,
  compliance: complianceSchema,
  turnaround_budget: turnaroundBudgetSchema,
  constraints: constraintsSchema,
  turnaround_days: turnaroundDays(),
  turnaround_priority: z.enum(TURNAROUND_PRIORITIES),
  deliverables: deliverablesSchema,
  privacy: privacySchema,
  protocol: protocolSchema,
  materials_provided: materialsSchema,
  replicates: replicatesSchema,
  acceptance_criteria: acceptanceCriteriaSchema,
  communication_preferences: communicationPreferencesSchema,
  ...TYPE_SECTION_SCHEMAS,
} as const;

export type RequestSectionKey = keyof typeof REQUEST_SECTION_SCHEMAS;

export const REQUEST_FIELDS: readonly string[] = ["experiment_type", ...Object.keys(REQUEST_SECTION_SCHEMAS)];

/**
 * The whole request as one strict zod object (every field optional at this level: which are
 * required depends on the mode and on alternative spellings, see validate-request.ts). Exposed
 * for documentation and tooling; the validator parses section by section with the same schemas.
 */
export const experimentRequestSchema = z.strictObject({
  experiment_type: z.string().optional(),
  metadata: metadataSchema.optional(),
  title: titleSchema.optional(),
  hypothesis: hypothesisSchema.optional(),
  compliance: complianceSchema.optional(),
  turnaround_budget: turnaroundBudgetSchema.optional(),
  constraints: constraintsSchema.optional(),
  turnaround_days: turnaroundDays().optional(),
  turnaround_priority: z.enum(TURNAROUND_PRIORITIES).optional(),
  deliverables: deliverablesSchema.optional(),
  privacy: privacySchema.optional(),
  protocol: protocolSchema.optional(),
  materials_provided: materialsSchema.optional(),
  replicates: replicatesSchema.optional(),
  acceptance_criteria: acceptanceCriteriaSchema.optional(),
  communication_preferences: communicationPreferencesSchema.optional(),
  sanger: sangerSchema.optional(),
  qpcr: qpcrSchema.optional(),
  cell_viability: cellViabilitySchema.optional(),
  enzyme_inhibition: enzymeInhibitionSchema.optional(),
  microbial_growth: microbialGrowthSchema.optional(),
  mic_mbc: micMbcSchema.optional(),
  mic_mbc_assay: micMbcAssaySchema.optional(),
  zone_of_inhibition: zoneOfInhibitionSchema.optional(),
  custom_protocol: customProtocolSchema.optional(),
});
