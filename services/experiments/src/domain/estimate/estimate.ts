/**
 * The estimator: cost (integer cents internally), turnaround and operator availability.
 * Pure: no I/O, no clock. The model's numbers live in model.ts; docs/estimates.md explains them.
 */
import {
  type CapacityLevelName,
  EXPERIMENT_TYPES,
  type ExperimentTypeName,
  PRIVACY_LEVELS,
  type PrivacyLevelName,
  TURNAROUND_PRIORITIES,
} from "@petri/contracts/vocabulary";
import { availabilityFromCount } from "@petri/contracts";
import type { ProtocolTemplate } from "../templates/index.js";
import { getTemplate } from "../templates/index.js";
import type { EstimateInput } from "./input.js";
import { toCount } from "./input.js";
import type { PackageLevel, TypeCostModel, WorkDimension, WorkDimensions } from "./model.js";
import {
  COUNT_LIMITS,
  CUSTOM_TEMPLATE_TURNAROUND_DAYS,
  DEFAULT_REPLICATES,
  L2_EXTRA_DAYS,
  MAX_WORK_MULTIPLE,
  PACKAGE_LEVEL_MULTIPLIER,
  PACKAGE_LEVELS,
  PLATFORM_FEE_RATE,
  PRIORITY_MULTIPLIER,
  PRIVACY_PREMIUM_RATE,
  PRIVATE_PREMIUM_RATE_BY_PACKAGE,
  TURNAROUND_DAYS_PER_EXTRA_BATCH,
  TURNAROUND_MAX_EXTRA_DAYS,
  TYPE_COST_MODELS,
  WORK_FIXED_SHARE,
} from "./model.js";

export interface EstimateContext {
  /** Verified operators whose hard filters pass for this request (marketplace matching). */
  operatorsAbleToTakeIt: number;
}

export interface CostBreakdown<T = number> {
  materials: T;
  labor: T;
  equipment: T;
  platform_fee: T;
  privacy_premium: T;
}

/** The POST /estimate response: USD numbers with at most two decimals. */
export interface ExperimentEstimate {
  estimated_cost_usd: { low: number; typical: number; high: number };
  estimated_turnaround_days: { standard: number; expedited: number };
  cost_breakdown: CostBreakdown;
  operator_availability: CapacityLevelName;
}

/** The same estimate in integer cents, with what it was based on (for storage and audits). */
export interface EstimateCents {
  low: number;
  typical: number;
  high: number;
  /** Parts sum exactly to `typical`. */
  breakdown: CostBreakdown;
  turnaround_days: { standard: number; expedited: number };
  /** The type whose model priced the request (CUSTOM when unknown). */
  priced_as: ExperimentTypeName;
  /** The template whose cost band was used, or null. */
  template_id: string | null;
  /** Work relative to the reference experiment (1 = reference), after the cap. */
  work_multiple: number;
}

export const centsToUsd = (cents: number): number => Math.round(cents) / 100;
export const usdToCents = (usd: number): number => Math.round(usd * 100);

/** The privacy premium rate for a setting (private depends on the package level). */
export function privacyPremiumRate(privacy: PrivacyLevelName, packageLevel: PackageLevel): number {
  return privacy === "private"
    ? PRIVATE_PREMIUM_RATE_BY_PACKAGE[packageLevel]
    : PRIVACY_PREMIUM_RATE[privacy];
}

/** high / medium / low / none from the count of operators able to take the request. */
export function operatorAvailability(operatorsAbleToTakeIt: number): CapacityLevelName {
  return availabilityFromCount(operatorsAbleToTakeIt);
}

function fullDimensions(model: TypeCostModel, given: WorkDimensions): Required<WorkDimensions> {
  const all: Required<WorkDimensions> = {
    samples: 1,
    reads_per_sample: 1,
    targets: 1,
    reference_genes: 1,
    compounds: 1,
    dose_points: 1,
    organisms: 1,
    conditions: 1,
  };
  for (const d of model.dimensions as readonly WorkDimension[]) {
    all[d] = toCount(given[d]) ?? model.reference[d] ?? 1;
  }
  return all;
}

/** The type, template and cost band that price this input. */
function pricingBasis(input: EstimateInput): {
  type: ExperimentTypeName;
  model: TypeCostModel;
  template: ProtocolTemplate | undefined;
  band: { low: number; high: number };
} {
  const candidate = getTemplate(input.template_id);
  const explicit = EXPERIMENT_TYPES.includes(input.experiment_type as ExperimentTypeName)
    ? (input.experiment_type as ExperimentTypeName)
    : undefined;
  const type = explicit ?? candidate?.experiment_type ?? "CUSTOM";
  // A template of another type than the request's is ignored (the validator reports it).
  const template = candidate?.experiment_type === type ? candidate : undefined;
  const model = TYPE_COST_MODELS[type];
  return { type, model, template, band: template?.estimated_cost_usd ?? model.price_band_usd };
}

/** The estimate in integer cents. Never throws; out-of-range inputs are clamped or defaulted. */
export function estimateCents(input: EstimateInput): EstimateCents {
  const { type, model, template, band } = pricingBasis(input);
  const packageLevel = PACKAGE_LEVELS.includes(input.package_level) ? input.package_level : "L1_BASIC_QC";
  const priority = TURNAROUND_PRIORITIES.includes(input.priority) ? input.priority : "standard";
  const privacy = PRIVACY_LEVELS.includes(input.privacy) ? input.privacy : "open";
  const technical =
    toCount(input.technical_replicates, COUNT_LIMITS.max_replicates) ?? DEFAULT_REPLICATES.technical;
  const biological =
    toCount(input.biological_replicates, COUNT_LIMITS.max_replicates) ?? DEFAULT_REPLICATES.biological;

  // Work relative to the reference experiment.
  const units = model.units(fullDimensions(model, input.work ?? {})) * technical * biological;
  const referenceUnits =
    model.units(fullDimensions(model, model.reference)) *
    DEFAULT_REPLICATES.technical *
    DEFAULT_REPLICATES.biological;
  const workMultiple = Math.min(units / referenceUnits, MAX_WORK_MULTIPLE);

  // The band's midpoint is the reference experiment's typical price, platform fee included.
  const midpointCents = (band.low + band.high) * 50;
  const referenceLabCents = midpointCents / (1 + PLATFORM_FEE_RATE);
  const work = Math.round(referenceLabCents * (WORK_FIXED_SHARE + (1 - WORK_FIXED_SHARE) * workMultiple));

  const materials = Math.round(work * model.split.materials);
  const equipment = Math.round(work * model.split.equipment);
  let labor = work - materials - equipment;
  labor += Math.round(work * (PACKAGE_LEVEL_MULTIPLIER[packageLevel] - 1));
  let lab = materials + labor + equipment;

  const rush = Math.round(lab * (PRIORITY_MULTIPLIER[priority] - 1));
  labor += rush;
  lab += rush;

  const platformFee = Math.round(lab * PLATFORM_FEE_RATE);
  const privacyPremium = Math.round((lab + platformFee) * privacyPremiumRate(privacy, packageLevel));
  const typical = lab + platformFee + privacyPremium;

  const midpoint = (band.low + band.high) / 2;
  const extra = Math.min(
    TURNAROUND_MAX_EXTRA_DAYS,
    Math.max(0, Math.floor(workMultiple) - 1) * TURNAROUND_DAYS_PER_EXTRA_BATCH,
  );
  const analysis = packageLevel === "L2_INTERPRETATION" ? L2_EXTRA_DAYS : 0;
  const runDays = template ? Math.ceil(template.estimated_duration_hours / 24) : 0;
  const baseDays =
    type === "CUSTOM" && template
      ? {
          standard: CUSTOM_TEMPLATE_TURNAROUND_DAYS.standard + runDays,
          expedited: CUSTOM_TEMPLATE_TURNAROUND_DAYS.expedited + runDays,
        }
      : model.turnaround_days;

  return {
    low: Math.round((typical * band.low) / midpoint),
    typical,
    high: Math.round((typical * band.high) / midpoint),
    breakdown: {
      materials,
      labor,
      equipment,
      platform_fee: platformFee,
      privacy_premium: privacyPremium,
    },
    turnaround_days: {
      standard: baseDays.standard + extra + analysis,
      expedited: baseDays.expedited + Math.ceil(extra / 2) + analysis,
    },
    priced_as: type,
    template_id: template?.id ?? null,
    work_multiple: workMultiple,
  };
}

/** POST /estimate. */
export function estimateExperiment(input: EstimateInput, context: EstimateContext): ExperimentEstimate {
  const c = estimateCents(input);
  return {
    estimated_cost_usd: { low: centsToUsd(c.low), typical: centsToUsd(c.typical), high: centsToUsd(c.high) },
    estimated_turnaround_days: c.turnaround_days,
    cost_breakdown: {
      materials: centsToUsd(c.breakdown.materials),
      labor: centsToUsd(c.breakdown.labor),
      equipment: centsToUsd(c.breakdown.equipment),
      platform_fee: centsToUsd(c.breakdown.platform_fee),
      privacy_premium: centsToUsd(c.breakdown.privacy_premium),
    },
    operator_availability: operatorAvailability(context?.operatorsAbleToTakeIt ?? 0),
  };
}
