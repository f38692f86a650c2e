/**
 * Matching, phase 2: a weighted score (docs/intake-model.md "Matching"; issue 5 item 10).
 *
 * score = round1(Σ weight × fit), each fit in 0..1, weights summing to 100:
 *   capability 35 · turnaround 25 · cost 25 · quality 15   (MATCH_WEIGHTS)
 *
 * capability fit = 0.5 × verified competency for the type (declared and verified)
 *                + 0.2 × menu-tag overlap (share of the job's menu_tags the lab lists; 1 when the
 *                        job names none)
 *                + 0.15 × instrument depth (per required equipment name: 1 when it is a declared
 *                        instrument — an instrument carries make/model/calibration — 0.5 when it
 *                        is only on the equipment list, 0 when absent; 1 when nothing is required)
 *                + 0.15 × custom protocol (1 unless the job brings a custom protocol — implied
 *                        for CUSTOM — and the lab is not custom_protocol_capable)
 *
 * turnaround fit: the lab's days for the type (standard_days, or expedited_days when the job's
 *   priority is expedited or urgent) against the target T = min(desired_turnaround_days, whole
 *   days from `now` to the deadline, end of day UTC for a date). With no target, T defaults by
 *   priority (DEFAULT_TARGET_DAYS: standard 14, expedited 7, urgent 3).
 *   fit = 1 when days <= T, else T / days (0 for a passed deadline). 0 when the lab has no
 *   turnaround for the type.
 *
 * cost fit: the lab's band for the type, its min raised to the lab's minimum order, against the
 *   budget B. B >= typical -> 1 ("inside"); min <= B < typical -> 0.6 + 0.4 × (B - min) /
 *   (typical - min); B < min -> 0.6 × (B / min)² (decreasing to 0 as the band rises above the
 *   budget). No budget -> 1 for every lab (neutral; cannot discriminate). 0 without a band.
 *
 * quality fit: observed = 0.35 on_time_rate + 0.25 (1 - dispute_rate) + 0.15 (1 - rerun_rate)
 *   + 0.25 (average_rating - 1) / 4, shrunk towards a neutral prior for labs with few jobs:
 *   fit = (n × observed + k × prior) / (n + k), n = total_jobs_completed, k = 5 (QUALITY_PRIOR).
 *   prior = 0.7: a new lab ranks below a proven good lab and above a proven poor one. A missing
 *   rating uses the prior for its term. Rates are clamped to 0..1, rating to 1..5.
 *
 * Monotonicity (tested as properties): better metrics, a higher budget or shorter lab turnaround
 * never lower the score. Ineligible operators still get components and a score (for staff
 * display); rankOperators keeps eligible operators only.
 */
import type { TurnaroundPriorityName } from "@petri/contracts/vocabulary";
import {
  availableEquipment,
  isQualifiedFor,
  normalizeName,
  priceBandFor,
  turnaroundFor,
  type FailedFilter,
  type JobRequirements,
  type Operator,
  type QualityMetrics,
} from "../operators/index.js";

export const MATCH_WEIGHTS = { capability: 35, turnaround: 25, cost: 25, quality: 15 } as const;
export const CAPABILITY_PARTS = {
  competency: 0.5,
  menu_tags: 0.2,
  instruments: 0.15,
  custom_protocol: 0.15,
} as const;
export const DEFAULT_TARGET_DAYS: Readonly<Record<TurnaroundPriorityName, number>> = {
  standard: 14,
  expedited: 7,
  urgent: 3,
};
export const COST_FIT = { atMin: 0.6 } as const;
export const QUALITY_PRIOR = { value: 0.7, pseudoJobs: 5 } as const;
export const QUALITY_PARTS = { on_time: 0.35, dispute: 0.25, rerun: 0.15, rating: 0.25 } as const;

export interface MatchComponents {
  /** Fits in 0..1 (multiply by MATCH_WEIGHTS for points). */
  capability: number;
  turnaround: number;
  cost: number;
  quality: number;
}

export interface MatchScore {
  operator_id: string;
  eligible: boolean;
  failed_filters: FailedFilter[];
  /** 0..100, one decimal. */
  score: number;
  components: MatchComponents;
}

const DAY_MS = 86_400_000;
const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

export function capabilityFit(operator: Operator, job: JobRequirements): number {
  const { capabilities } = operator.profile;
  const competent =
    capabilities.experiment_types.includes(job.experiment_type) &&
    (operator.verification?.competencies_verified.includes(job.experiment_type) ?? false);

  const wanted = [...new Set((job.menu_tags ?? []).map(normalizeName))];
  const tags = new Set(capabilities.menu_tags.map(normalizeName));
  const tagFit = wanted.length === 0 ? 1 : wanted.filter((t) => tags.has(t)).length / wanted.length;

  const required = [...new Set(job.equipment_required.map(normalizeName))];
  const instruments = new Set(capabilities.instruments.map((i) => normalizeName(i.name)));
  const anyEquipment = availableEquipment(operator.profile);
  const instrumentFit =
    required.length === 0
      ? 1
      : required.reduce((s, n) => s + (instruments.has(n) ? 1 : anyEquipment.has(n) ? 0.5 : 0), 0) /
        required.length;

  const needsCustom = job.custom_protocol === true || job.experiment_type === "CUSTOM";
  const customFit = needsCustom && !capabilities.custom_protocol_capable ? 0 : 1;

  return clamp01(
    CAPABILITY_PARTS.competency * (competent ? 1 : 0) +
      CAPABILITY_PARTS.menu_tags * tagFit +
      CAPABILITY_PARTS.instruments * instrumentFit +
      CAPABILITY_PARTS.custom_protocol * customFit,
  );
}

/** Whole days from `now` to the deadline (a date means the end of that UTC day); null if none. */
export function daysUntilDeadline(deadline: string | undefined, now: Date): number | null {
  if (deadline === undefined) return null;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(deadline)
    ? Date.parse(`${deadline}T23:59:59.999Z`)
    : Date.parse(deadline);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.floor((at - now.getTime()) / DAY_MS));
}

export function targetDays(job: JobRequirements, now: Date): number {
  const candidates: number[] = [];
  if (job.desired_turnaround_days !== undefined && Number.isFinite(job.desired_turnaround_days))
    candidates.push(Math.max(0, job.desired_turnaround_days));
  const untilDeadline = daysUntilDeadline(job.deadline, now);
  if (untilDeadline !== null) candidates.push(untilDeadline);
  return candidates.length === 0 ? DEFAULT_TARGET_DAYS[job.priority] : Math.min(...candidates);
}

/** Fit of `labDays` against `target` days: 1 when on time, else target / labDays. */
export function turnaroundFitFor(labDays: number, target: number): number {
  if (!(labDays > 0)) return 1;
  return labDays <= target ? 1 : clamp01(target / labDays);
}

export function turnaroundFit(operator: Operator, job: JobRequirements, now: Date): number {
  const terms = turnaroundFor(operator.profile, job.experiment_type);
  if (terms === undefined) return 0;
  const labDays = job.priority === "standard" ? terms.standard_days : terms.expedited_days;
  return turnaroundFitFor(labDays, targetDays(job, now));
}

/** Fit of a budget against a price band {min, typical}. */
export function costFitFor(budget: number | undefined, min: number, typical: number): number {
  if (budget === undefined || !Number.isFinite(budget)) return 1;
  if (budget >= typical) return 1;
  if (budget >= min) return COST_FIT.atMin + (1 - COST_FIT.atMin) * ((budget - min) / (typical - min));
  return clamp01(COST_FIT.atMin * (Math.max(0, budget) / min) ** 2);
}

export function costFit(operator: Operator, job: JobRequirements): number {
  const band = priceBandFor(operator.profile, job.experiment_type);
  if (band === undefined) return 0;
  const min = Math.max(band.min_usd, operator.profile.commercial_terms.minimum_order_usd);
  const typical = Math.max(band.typical_usd, min);
  return costFitFor(job.budget_usd, min, typical);
}

export function qualityFit(metrics: QualityMetrics): number {
  const rating =
    metrics.average_rating === null || !Number.isFinite(metrics.average_rating)
      ? QUALITY_PRIOR.value
      : (Math.min(5, Math.max(1, metrics.average_rating)) - 1) / 4;
  const observed =
    QUALITY_PARTS.on_time * clamp01(metrics.on_time_rate) +
    QUALITY_PARTS.dispute * (1 - clamp01(metrics.dispute_rate)) +
    QUALITY_PARTS.rerun * (1 - clamp01(metrics.rerun_rate)) +
    QUALITY_PARTS.rating * rating;
  const n = Number.isFinite(metrics.total_jobs_completed)
    ? Math.max(0, Math.floor(metrics.total_jobs_completed))
    : 0;
  const k = QUALITY_PRIOR.pseudoJobs;
  return clamp01((n * observed + k * QUALITY_PRIOR.value) / (n + k));
}

export function scoreMatch(operator: Operator, job: JobRequirements, now: Date): MatchScore {
  const qualification = isQualifiedFor(operator, job, now);
  const components: MatchComponents = {
    capability: capabilityFit(operator, job),
    turnaround: turnaroundFit(operator, job, now),
    cost: costFit(operator, job),
    quality: qualityFit(operator.quality),
  };
  const raw =
    MATCH_WEIGHTS.capability * components.capability +
    MATCH_WEIGHTS.turnaround * components.turnaround +
    MATCH_WEIGHTS.cost * components.cost +
    MATCH_WEIGHTS.quality * components.quality;
  return {
    operator_id: operator.id,
    eligible: qualification.qualified,
    failed_filters: qualification.failed_filters,
    score: Math.min(100, Math.max(0, Math.round(raw * 10) / 10)),
    components,
  };
}

/** Eligible operators only, best score first; equal scores by operator id (ascending). */
export function rankOperators(operators: readonly Operator[], job: JobRequirements, now: Date): MatchScore[] {
  return operators
    .map((o) => scoreMatch(o, job, now))
    .filter((m) => m.eligible)
    .sort((a, b) =>
      b.score !== a.score
        ? b.score - a.score
        : a.operator_id < b.operator_id
          ? -1
          : a.operator_id > b.operator_id
            ? 1
            : 0,
    );
}
