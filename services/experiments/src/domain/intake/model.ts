/**
 * The one stored form of an experiment request (`NormalizedRequest`) and of a draft.
 *
 * Every alternative spelling is folded into one place:
 * - `compliance.bsl` as "BSL-1" / "BSL-2";
 * - `turnaround_budget` {budget_max_usd, desired_turnaround_days, hard_deadline,
 *   budget_flexibility, priority} (from turnaround_budget.*, constraints.*, turnaround_days,
 *   turnaround_priority, turnaround_budget.max_days);
 * - `replicates` {technical, biological} (from replicates.* or protocol.replicates.*, either
 *   field spelling);
 * - `custom_protocol` at the top level with protocol_title / protocol_version (from
 *   custom_protocol or protocol.custom_protocol, title/version spellings);
 * - `materials_provided` (from materials_provided or protocol.materials);
 * - `hypothesis.rationale` (from rationale or why_interesting);
 * - `acceptance_criteria.statistical_requirements.statistical_test` (from statistical_test or
 *   test, the name another marketplace's schema uses; `test` also raises a warning);
 * - `protocol` keeps only {type, template_id, template_parameters, protocol_design_brief}.
 * Every default of docs/intake-model.md is applied. The stored form is itself a valid request:
 * validating it again returns it unchanged.
 */
import type { z } from "zod";

import type {
  BudgetFlexibilityName,
  ExperimentTypeName,
  PrivacyLevelName,
  TurnaroundPriorityName,
} from "@petri/contracts/vocabulary";
import type { SupportedBslLevel } from "./bsl.js";
import type {
  ProcessedOutput,
  ProtocolType,
  acceptanceCriteriaSchema,
  communicationPreferencesSchema,
  complianceSchema,
  deliverablesSchema,
  hypothesisSchema,
  materialSchema,
  metadataSchema,
} from "./schema/common.js";
import type { customProtocolSchema } from "./schema/protocol.js";
import type {
  cellViabilitySchema,
  enzymeInhibitionSchema,
  micMbcAssaySchema,
  micMbcSchema,
  microbialGrowthSchema,
  qpcrSchema,
  sangerSchema,
  zoneOfInhibitionSchema,
} from "./schema/types.js";

export type Metadata = z.output<typeof metadataSchema>;
export type Hypothesis = Omit<z.output<typeof hypothesisSchema>, "why_interesting">;
export type Compliance = Omit<z.output<typeof complianceSchema>, "bsl"> & { bsl: SupportedBslLevel };
export interface TurnaroundBudget {
  budget_max_usd: number;
  desired_turnaround_days?: number;
  /** YYYY-MM-DD. */
  hard_deadline?: string;
  budget_flexibility: BudgetFlexibilityName;
  priority: TurnaroundPriorityName;
}
export type Deliverables = z.output<typeof deliverablesSchema>;
export type Material = z.output<typeof materialSchema>;
export interface Replicates {
  technical: number;
  biological: number;
}
type ParsedAcceptanceCriteria = z.output<typeof acceptanceCriteriaSchema>;
/** `statistical_requirements.test` (another schema's name) is stored as statistical_test. */
export type AcceptanceCriteria = Omit<ParsedAcceptanceCriteria, "statistical_requirements"> & {
  statistical_requirements?: Omit<NonNullable<ParsedAcceptanceCriteria["statistical_requirements"]>, "test">;
};
export type CommunicationPreferences = z.output<typeof communicationPreferencesSchema>;
export interface NormalizedProtocol {
  type: ProtocolType;
  template_id?: string;
  template_parameters?: Record<string, unknown>;
  protocol_design_brief?: string;
}
export type CustomProtocol = Omit<z.output<typeof customProtocolSchema>, "title" | "version">;

export type SangerSection = z.output<typeof sangerSchema>;
export type QpcrSection = z.output<typeof qpcrSchema>;
export type CellViabilitySection = z.output<typeof cellViabilitySchema>;
export type EnzymeInhibitionSection = z.output<typeof enzymeInhibitionSchema>;
export type MicrobialGrowthSection = z.output<typeof microbialGrowthSchema>;
export type MicMbcSection = z.output<typeof micMbcSchema>;
export type MicMbcAssaySection = z.output<typeof micMbcAssaySchema>;
export type ZoneOfInhibitionSection = z.output<typeof zoneOfInhibitionSchema>;

/** Sections every stored request has (defaults applied). */
export interface NormalizedCommon {
  metadata: Metadata;
  title: string;
  hypothesis: Hypothesis;
  compliance: Compliance;
  turnaround_budget: TurnaroundBudget;
  deliverables: Deliverables;
  privacy: PrivacyLevelName;
  /** Absent when the request named no protocol choice (the type section describes the work). */
  protocol?: NormalizedProtocol;
  materials_provided: Material[];
  replicates: Replicates;
  acceptance_criteria: AcceptanceCriteria;
  communication_preferences: CommunicationPreferences;
  /** Present for CUSTOM and for any type whose protocol.type is custom. */
  custom_protocol?: CustomProtocol;
}

/** The type-specific part, discriminated by experiment_type. */
export type TypeSpecific =
  | { experiment_type: "SANGER_PLASMID_VERIFICATION"; sanger: SangerSection }
  | { experiment_type: "QPCR_EXPRESSION"; qpcr: QpcrSection }
  | { experiment_type: "CELL_VIABILITY_IC50"; cell_viability: CellViabilitySection }
  | { experiment_type: "ENZYME_INHIBITION_IC50"; enzyme_inhibition: EnzymeInhibitionSection }
  | { experiment_type: "MICROBIAL_GROWTH_MATRIX"; microbial_growth: MicrobialGrowthSection }
  /** At least one of the two MIC forms is present. */
  | { experiment_type: "MIC_MBC_ASSAY"; mic_mbc?: MicMbcSection; mic_mbc_assay?: MicMbcAssaySection }
  | { experiment_type: "ZONE_OF_INHIBITION"; zone_of_inhibition: ZoneOfInhibitionSection }
  /** custom_protocol (in NormalizedCommon) is present unless protocol.type is protocol_design_requested. */
  | { experiment_type: "CUSTOM" };

/** The one stored form of a complete, valid experiment request. */
export type NormalizedRequest = NormalizedCommon & TypeSpecific;

type DeepPartial<T> = T extends readonly (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * The normalised form of a draft: the same shape, any required field possibly absent. Sections
 * with defaults are always present (defaults applied), as in NormalizedRequest.
 */
export interface NormalizedDraft {
  experiment_type?: ExperimentTypeName;
  metadata: Metadata;
  title?: string;
  hypothesis?: DeepPartial<Hypothesis>;
  compliance: Compliance;
  turnaround_budget: Omit<TurnaroundBudget, "budget_max_usd"> & { budget_max_usd?: number };
  deliverables: Deliverables;
  privacy: PrivacyLevelName;
  protocol?: Partial<NormalizedProtocol>;
  materials_provided: DeepPartial<Material>[];
  replicates: Replicates;
  acceptance_criteria: DeepPartial<AcceptanceCriteria>;
  communication_preferences: CommunicationPreferences;
  custom_protocol?: DeepPartial<CustomProtocol>;
  sanger?: DeepPartial<SangerSection>;
  qpcr?: DeepPartial<QpcrSection>;
  cell_viability?: DeepPartial<CellViabilitySection>;
  enzyme_inhibition?: DeepPartial<EnzymeInhibitionSection>;
  microbial_growth?: DeepPartial<MicrobialGrowthSection>;
  mic_mbc?: DeepPartial<MicMbcSection>;
  mic_mbc_assay?: DeepPartial<MicMbcAssaySection>;
  zone_of_inhibition?: DeepPartial<ZoneOfInhibitionSection>;
}

/** Typical market price bands (USD) from docs/intake-model.md; CUSTOM has none ("variable"). */
export const TYPICAL_PRICE_BANDS_USD: Readonly<
  Record<ExperimentTypeName, { low: number; high: number } | null>
> = {
  SANGER_PLASMID_VERIFICATION: { low: 50, high: 150 },
  QPCR_EXPRESSION: { low: 200, high: 500 },
  CELL_VIABILITY_IC50: { low: 300, high: 800 },
  ENZYME_INHIBITION_IC50: { low: 200, high: 600 },
  MICROBIAL_GROWTH_MATRIX: { low: 150, high: 400 },
  MIC_MBC_ASSAY: { low: 200, high: 400 },
  ZONE_OF_INHIBITION: { low: 100, high: 250 },
  CUSTOM: null,
};

/** Processed outputs that apply to each type (docs/intake-model.md); QC_SUMMARY and ANALYSIS_NOTEBOOK apply to all. */
export const PROCESSED_OUTPUTS_BY_TYPE: Readonly<Record<ExperimentTypeName, readonly ProcessedOutput[]>> = {
  SANGER_PLASMID_VERIFICATION: ["ALIGNMENT_VS_REFERENCE", "VARIANT_CALLS"],
  QPCR_EXPRESSION: ["CT_TABLE", "DDCT_FOLD_CHANGE", "AMPLIFICATION_PLOTS", "MELT_CURVES"],
  CELL_VIABILITY_IC50: ["NORMALIZED_VIABILITY_PERCENT", "IC50_CURVE_FIT"],
  ENZYME_INHIBITION_IC50: ["IC50_CURVE_FIT", "KINETIC_PARAMETERS"],
  MICROBIAL_GROWTH_MATRIX: ["GROWTH_RATE_LAG_MAXOD"],
  MIC_MBC_ASSAY: ["MIC_VALUE", "MBC_VALUE"],
  ZONE_OF_INHIBITION: ["ZONE_DIAMETER_MM"],
  CUSTOM: [
    "ALIGNMENT_VS_REFERENCE",
    "VARIANT_CALLS",
    "CT_TABLE",
    "DDCT_FOLD_CHANGE",
    "AMPLIFICATION_PLOTS",
    "MELT_CURVES",
    "NORMALIZED_VIABILITY_PERCENT",
    "IC50_CURVE_FIT",
    "KINETIC_PARAMETERS",
    "GROWTH_RATE_LAG_MAXOD",
    "MIC_VALUE",
    "MBC_VALUE",
    "ZONE_DIAMETER_MM",
  ],
};
export const PROCESSED_OUTPUTS_ANY_TYPE: readonly ProcessedOutput[] = ["QC_SUMMARY", "ANALYSIS_NOTEBOOK"];
