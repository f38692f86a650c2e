/**
 * The cost and turnaround model of POST /estimate (docs/estimates.md explains it for users).
 * Every number the estimator uses is a named constant in this file.
 */
import {
  type ExperimentTypeName,
  PACKAGE_LEVELS,
  type PackageLevelName,
  type PrivacyLevelName,
  type TurnaroundPriorityName,
} from "@petri/contracts/vocabulary";

export type PackageLevel = PackageLevelName;
export { PACKAGE_LEVELS };

/** Counts that size the work of a request. An absent count takes the type's reference value. */
export interface WorkDimensions {
  /** Samples or templates (Sanger templates, qPCR cDNA samples, CUSTOM samples). */
  samples?: number;
  /** Sanger reads per template (primers). */
  reads_per_sample?: number;
  /** qPCR target genes. */
  targets?: number;
  /** qPCR reference (housekeeping) genes. */
  reference_genes?: number;
  /** Compounds or inhibitors tested. */
  compounds?: number;
  /** Concentrations per series (dose points, inhibitor concentrations, MIC dilutions, disk loadings). */
  dose_points?: number;
  /** Organisms or strains tested. */
  organisms?: number;
  /** Conditions of a growth matrix (the product of the value counts of its variables). */
  conditions?: number;
}
export type WorkDimension = keyof WorkDimensions;

export interface TypeCostModel {
  /** Market price band of the reference experiment, whole USD (docs/intake-model.md). */
  readonly price_band_usd: { readonly low: number; readonly high: number };
  /** The reference experiment the band prices (with DEFAULT_REPLICATES). */
  readonly reference: Readonly<WorkDimensions>;
  /** Which dimensions count, and how they combine into work units (before replicates). */
  readonly dimensions: readonly WorkDimension[];
  readonly units: (d: Readonly<Required<WorkDimensions>>) => number;
  /** How the lab work splits into materials, labour and equipment (sums to 1). */
  readonly split: { readonly materials: number; readonly labor: number; readonly equipment: number };
  /** Calendar days for the reference experiment: standard queue and expedited. */
  readonly turnaround_days: { readonly standard: number; readonly expedited: number };
}

/**
 * Per experiment type. The bands are the market bands of docs/intake-model.md; CUSTOM
 * ("variable" there) gets a wide band of Petri's choosing. The reference experiment is what a
 * request of that type with nothing else stated is assumed to be.
 */
export const TYPE_COST_MODELS: Readonly<Record<ExperimentTypeName, TypeCostModel>> = {
  SANGER_PLASMID_VERIFICATION: {
    price_band_usd: { low: 50, high: 150 },
    reference: { samples: 1, reads_per_sample: 2 },
    dimensions: ["samples", "reads_per_sample"],
    units: (d) => d.samples * d.reads_per_sample,
    split: { materials: 0.35, labor: 0.35, equipment: 0.3 },
    turnaround_days: { standard: 5, expedited: 3 },
  },
  QPCR_EXPRESSION: {
    price_band_usd: { low: 200, high: 500 },
    reference: { samples: 6, targets: 1, reference_genes: 2 },
    dimensions: ["samples", "targets", "reference_genes"],
    units: (d) => d.samples * (d.targets + d.reference_genes),
    split: { materials: 0.4, labor: 0.4, equipment: 0.2 },
    turnaround_days: { standard: 10, expedited: 5 },
  },
  CELL_VIABILITY_IC50: {
    price_band_usd: { low: 300, high: 800 },
    reference: { compounds: 1, dose_points: 10 },
    dimensions: ["compounds", "dose_points"],
    units: (d) => d.compounds * d.dose_points,
    split: { materials: 0.35, labor: 0.45, equipment: 0.2 },
    turnaround_days: { standard: 14, expedited: 8 },
  },
  ENZYME_INHIBITION_IC50: {
    price_band_usd: { low: 200, high: 600 },
    reference: { compounds: 1, dose_points: 10 },
    dimensions: ["compounds", "dose_points"],
    units: (d) => d.compounds * d.dose_points,
    split: { materials: 0.4, labor: 0.4, equipment: 0.2 },
    turnaround_days: { standard: 10, expedited: 5 },
  },
  MICROBIAL_GROWTH_MATRIX: {
    price_band_usd: { low: 150, high: 400 },
    reference: { organisms: 1, conditions: 6 },
    dimensions: ["organisms", "conditions"],
    units: (d) => d.organisms * d.conditions,
    split: { materials: 0.25, labor: 0.45, equipment: 0.3 },
    turnaround_days: { standard: 10, expedited: 5 },
  },
  MIC_MBC_ASSAY: {
    price_band_usd: { low: 200, high: 400 },
    reference: { organisms: 1, compounds: 1, dose_points: 10 },
    dimensions: ["organisms", "compounds", "dose_points"],
    units: (d) => d.organisms * d.compounds * d.dose_points,
    split: { materials: 0.3, labor: 0.5, equipment: 0.2 },
    turnaround_days: { standard: 10, expedited: 5 },
  },
  ZONE_OF_INHIBITION: {
    price_band_usd: { low: 100, high: 250 },
    reference: { organisms: 1, compounds: 1, dose_points: 1 },
    dimensions: ["organisms", "compounds", "dose_points"],
    units: (d) => d.organisms * d.compounds * d.dose_points,
    split: { materials: 0.3, labor: 0.55, equipment: 0.15 },
    turnaround_days: { standard: 7, expedited: 4 },
  },
  CUSTOM: {
    price_band_usd: { low: 300, high: 1500 },
    reference: { samples: 1 },
    dimensions: ["samples"],
    units: (d) => d.samples,
    split: { materials: 0.3, labor: 0.5, equipment: 0.2 },
    turnaround_days: { standard: 21, expedited: 12 },
  },
};

/** Replicates the reference experiments assume (the intake defaults). */
export const DEFAULT_REPLICATES = { technical: 3, biological: 1 } as const;

/**
 * Share of the reference lab cost that does not grow with the work (setup, QC, analysis,
 * report); the rest scales linearly with work units × technical × biological replicates.
 */
export const WORK_FIXED_SHARE = 0.4;

/** Work beyond this multiple of the reference experiment is not priced further (quote on request). */
export const MAX_WORK_MULTIPLE = 100;

/** Counts are clamped into these ranges before pricing. */
export const COUNT_LIMITS = { max_count: 10_000, max_replicates: 100 } as const;

/** Multiplier on the lab work per deliverables package; the difference is analysis labour. */
export const PACKAGE_LEVEL_MULTIPLIER: Readonly<Record<PackageLevel, number>> = {
  L0_RAW_ONLY: 0.9,
  L1_BASIC_QC: 1.0,
  L2_INTERPRETATION: 1.2,
};

/** Multiplier on the whole price per turnaround priority (docs/api.md: about +20% and +50%). */
export const PRIORITY_MULTIPLIER: Readonly<Record<TurnaroundPriorityName, number>> = {
  standard: 1.0,
  expedited: 1.2,
  urgent: 1.5,
};

/** Platform fee, as a share of the lab cost (materials + labour + equipment). */
export const PLATFORM_FEE_RATE = 0.1;

/** Privacy premium rates for the settings with a fixed rate (docs/api.md). */
export const PRIVACY_PREMIUM_RATE: Readonly<Record<Exclude<PrivacyLevelName, "private">, number>> = {
  open: 0,
  delayed_6mo: 0.1,
  delayed_12mo: 0.15,
};

/**
 * "private" (docs/api.md: about 25-50%) by package level: the richer the deliverable, the more
 * analysed, reusable data is withheld from the open record.
 */
export const PRIVATE_PREMIUM_RATE_BY_PACKAGE: Readonly<Record<PackageLevel, number>> = {
  L0_RAW_ONLY: 0.25,
  L1_BASIC_QC: 0.35,
  L2_INTERPRETATION: 0.5,
};

/**
 * A CUSTOM request on a catalogue template (a short general method such as a BCA assay) takes
 * these days plus the template's run time in whole days, instead of CUSTOM's turnaround.
 */
export const CUSTOM_TEMPLATE_TURNAROUND_DAYS = { standard: 5, expedited: 3 } as const;

/** Extra calendar days for the interpretation package (curve fits, statistics, figures). */
export const L2_EXTRA_DAYS = 1;

/**
 * Each full extra reference-sized batch of work adds this many standard days (expedited: half,
 * rounded up), at most TURNAROUND_MAX_EXTRA_DAYS.
 */
export const TURNAROUND_DAYS_PER_EXTRA_BATCH = 1;
export const TURNAROUND_MAX_EXTRA_DAYS = 30;

/**
 * operator_availability from the number of verified operators whose hard filters pass
 * (type verified, BSL, approvals, equipment, capacity): shared with the marketplace through
 * @petri/contracts, next to the eligibility rule.
 */
export { OPERATOR_AVAILABILITY_THRESHOLDS } from "@petri/contracts";
