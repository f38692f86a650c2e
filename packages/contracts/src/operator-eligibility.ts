import type { CapacityLevelName } from "./vocabulary.js";

/**
 * The meaning of an OperatorEligibility snapshot: may this operator take this job?
 *
 * The marketplace publishes the snapshot (petri.marketplace.operator_eligibility_changed) and
 * filters its job feed with this rule; the experiments service checks a claim against its
 * projection of the same snapshots with the same rule, and counts qualified operators for
 * `operator_availability`. The rule travels with the contract so that both sides read the
 * snapshot alike (decisions.md D35); it is pure and takes its inputs as plain values.
 *
 * Every filter is evaluated, not short-circuited, so a 403 can name all reasons:
 * - `operator_status`: status `active`.
 * - `competency`: the job's type is declared and verified (the snapshot lists only those).
 * - `bsl`: job BSL <= the lab's verified maximum (BSL-1 < BSL-2); an empty or unsupported level on
 *   either side fails.
 * - `human_samples` / `animal_samples` / `hazardous_chemicals`: approved when the job needs it.
 * - `equipment`: every required name is among the lab's (normalised) names, and verified.
 * - `capacity`: current capacity is not "none" and active jobs < max concurrent jobs.
 * - `vacation`: today, in the lab's time zone, is not inside a vacation (inclusive dates).
 */

export type EligibilityFilter =
  | "operator_status"
  | "competency"
  | "bsl"
  | "human_samples"
  | "animal_samples"
  | "hazardous_chemicals"
  | "equipment"
  | "capacity"
  | "vacation";

export interface FailedEligibilityFilter {
  filter: EligibilityFilter;
  /** A sentence fit for a 403 message. */
  reason: string;
}

/** The fields of petri.marketplace.v1.OperatorEligibility the rule reads. */
export interface EligibilitySnapshot {
  status: string;
  experimentTypes: readonly string[];
  maxBsl: string;
  humanSamplesApproved: boolean;
  animalSamplesApproved: boolean;
  hazardousChemicalsApproved: boolean;
  equipment: readonly string[];
  equipmentVerified: boolean;
  maxConcurrentJobs: number;
  currentCapacity: string;
  timezone: string;
  vacations: readonly { start: string; end: string }[];
}

/** The fields of petri.experiments.v1.JobRequirements the rule reads. */
export interface EligibilityJob {
  experimentType: string;
  bslLevel: string;
  needsHumanSamplesApproval: boolean;
  needsAnimalSamplesApproval: boolean;
  needsHazardousChemicalsApproval: boolean;
  equipmentRequired: readonly string[];
}

const BSL_RANK: Readonly<Record<string, number>> = { "BSL-1": 1, "BSL-2": 2 };

/** BSL rank (1, 2), or undefined for a level Petri does not support (unknown, BSL-3 and above). */
function bslRank(level: string): number | undefined {
  return Object.hasOwn(BSL_RANK, level) ? BSL_RANK[level] : undefined;
}

/**
 * Why the BSL filter fails, or null when it passes. Fails closed: a lab whose maximum is empty
 * or not a supported level is unverified, and a job at an unsupported level fits no lab.
 */
function bslFailure(jobLevel: string, labMax: string): string | null {
  const lab = bslRank(labMax);
  const job = bslRank(jobLevel);
  if (lab === undefined)
    return `job requires ${jobLevel || "an unknown level"} and the operator's biosafety level is not verified`;
  if (job === undefined) return `job requires ${jobLevel || "an unknown level"}, which no operator may take`;
  if (job > lab) return `job requires ${jobLevel}, above the operator's maximum ${labMax}`;
  return null;
}

/** Equipment / tag name normal form: trimmed, inner whitespace collapsed, lower case. */
export function normalizeEquipmentName(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * Date formatters by time zone, built once each: building one costs far more than formatting
 * (it loads the zone's rules), and eligibility is checked for every candidate operator of
 * every estimate. Only zones Intl accepts are kept (IANA names, as profiles are checked to
 * have), so the map stays as small as the set of zones operators use.
 */
const dateFormatters = new Map<string, Intl.DateTimeFormat>();

function dateFormatter(timeZone: string): Intl.DateTimeFormat | null {
  const known = dateFormatters.get(timeZone);
  if (known) return known;
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
  } catch {
    return null;
  }
  dateFormatters.set(timeZone, formatter);
  return formatter;
}

/** The calendar date (YYYY-MM-DD) of `now` in `timeZone`; UTC when the zone is unknown. */
export function localDate(now: Date, timeZone: string): string {
  const formatter = dateFormatter(timeZone || "UTC");
  if (formatter === null) return now.toISOString().slice(0, 10);
  const parts = formatter.formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

export function isOnVacation(snapshot: Pick<EligibilitySnapshot, "timezone" | "vacations">, now: Date) {
  if (snapshot.vacations.length === 0) return false;
  const today = localDate(now, snapshot.timezone);
  return snapshot.vacations.some((v) => v.start <= today && today <= v.end);
}

/** The failed hard filters (empty: the operator may take the job). */
export function eligibilityFailures(
  snapshot: EligibilitySnapshot,
  job: EligibilityJob,
  activeJobs: number,
  now: Date,
): FailedEligibilityFilter[] {
  const failed: FailedEligibilityFilter[] = [];

  if (snapshot.status !== "active") {
    failed.push({
      filter: "operator_status",
      reason: `operator status is ${snapshot.status || "unknown"}, only active (verified) operators may take jobs`,
    });
  }

  if (!snapshot.experimentTypes.includes(job.experimentType)) {
    failed.push({
      filter: "competency",
      reason: `no verified competency for ${job.experimentType}`,
    });
  }

  const bsl = bslFailure(job.bslLevel, snapshot.maxBsl);
  if (bsl !== null) failed.push({ filter: "bsl", reason: bsl });

  const materials = [
    ["human_samples", job.needsHumanSamplesApproval, snapshot.humanSamplesApproved, "human samples"],
    ["animal_samples", job.needsAnimalSamplesApproval, snapshot.animalSamplesApproved, "animal samples"],
    [
      "hazardous_chemicals",
      job.needsHazardousChemicalsApproval,
      snapshot.hazardousChemicalsApproved,
      "hazardous chemicals",
    ],
  ] as const;
  for (const [filter, needed, approved, label] of materials) {
    if (needed && !approved) {
      failed.push({
        filter,
        reason: `job involves ${label} and the operator has no verified approval for them`,
      });
    }
  }

  if (job.equipmentRequired.length > 0) {
    const have = new Set(snapshot.equipment.map(normalizeEquipmentName));
    const missing = job.equipmentRequired.filter((name) => !have.has(normalizeEquipmentName(name)));
    if (missing.length > 0) {
      failed.push({ filter: "equipment", reason: `missing required equipment: ${missing.join(", ")}` });
    } else if (!snapshot.equipmentVerified) {
      failed.push({ filter: "equipment", reason: "the operator's equipment is not verified" });
    }
  }

  if (snapshot.currentCapacity === "none" || activeJobs >= snapshot.maxConcurrentJobs) {
    failed.push({
      filter: "capacity",
      reason:
        snapshot.currentCapacity === "none"
          ? "operator reports no current capacity"
          : `operator has ${activeJobs} active jobs of at most ${snapshot.maxConcurrentJobs}`,
    });
  }

  if (isOnVacation(snapshot, now)) {
    failed.push({
      filter: "vacation",
      reason: `operator is on vacation on ${localDate(now, snapshot.timezone)}`,
    });
  }

  return failed;
}

/** Counts of eligible operators at which availability reaches each level: 8+, 3–7, 1–2, 0. */
export const OPERATOR_AVAILABILITY_THRESHOLDS = { high: 8, medium: 3, low: 1 } as const;

/** Availability from the number of operators who pass every hard filter for a request. */
export function availabilityFromCount(eligibleOperators: number): CapacityLevelName {
  const count = Number.isFinite(eligibleOperators) ? Math.floor(eligibleOperators) : 0;
  if (count >= OPERATOR_AVAILABILITY_THRESHOLDS.high) return "high";
  if (count >= OPERATOR_AVAILABILITY_THRESHOLDS.medium) return "medium";
  if (count >= OPERATOR_AVAILABILITY_THRESHOLDS.low) return "low";
  return "none";
}
