/**
 * Hard filters: may this operator take this job? (issue 5 items 2, 3 and 10)
 *
 * Every filter is evaluated (not short-circuited) so that a 403 can name all reasons:
 * - `operator_status`: status `active` with a verification record.
 * - `competency`: the job's type is declared in the profile AND verified by staff.
 * - `bsl`: job BSL <= the lab's max (BSL-1 < BSL-2). The lab's max is the lower of the declared
 *   and the verified level (staff may verify less than declared; never more than declared).
 * - `human_samples` / `animal_samples` / `hazardous_chemicals`: only when the job needs it;
 *   declared in the profile AND approved in the verification record.
 * - `equipment`: every required name is among the profile's equipment names or instrument names
 *   (trimmed, whitespace collapsed, case-insensitive) and staff verified the equipment.
 * - `capacity`: current_capacity is not "none" and active_jobs < max_concurrent_jobs.
 * - `vacation`: `now`, as a calendar date in the operator's timezone, is not inside any vacation
 *   (start and end inclusive).
 */
import { bslRank } from "./bsl.js";
import { normalizeName, type JobRequirements } from "./job.js";
import type { Operator } from "./operator.js";
import type { OperatorProfile } from "./profile.js";
import type { BslLevel } from "./types.js";

export type HardFilter =
  | "operator_status"
  | "competency"
  | "bsl"
  | "human_samples"
  | "animal_samples"
  | "hazardous_chemicals"
  | "equipment"
  | "capacity"
  | "vacation";

export interface FailedFilter {
  filter: HardFilter;
  /** A sentence fit for a 403 message. */
  reason: string;
}

export interface Qualification {
  qualified: boolean;
  failed_filters: FailedFilter[];
}

/** The calendar date (YYYY-MM-DD) of `now` in `timeZone`; UTC when the zone is unknown. */
export function localDate(now: Date, timeZone: string): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).formatToParts(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** Equipment names the operator has: equipment list plus instrument names, normalised. */
export function availableEquipment(profile: OperatorProfile): Set<string> {
  return new Set([
    ...profile.capabilities.equipment.map(normalizeName),
    ...profile.capabilities.instruments.map((i) => normalizeName(i.name)),
  ]);
}

/** The lab's effective maximum BSL (lower of declared and verified), or null if unverified. */
export function effectiveMaxBsl(operator: Operator): BslLevel | null {
  const verified = operator.verification?.max_bsl;
  if (verified === undefined) return null;
  const declared = operator.profile.compliance.max_bsl;
  return bslRank(declared) <= bslRank(verified) ? declared : verified;
}

export function isOnVacation(profile: OperatorProfile, now: Date): boolean {
  const today = localDate(now, profile.identity.timezone);
  return profile.availability.vacations.some((v) => v.start <= today && today <= v.end);
}

export function isQualifiedFor(operator: Operator, job: JobRequirements, now: Date): Qualification {
  const failed: FailedFilter[] = [];
  const { profile, verification } = operator;

  if (operator.status !== "active" || verification === null) {
    failed.push({
      filter: "operator_status",
      reason:
        operator.status !== "active"
          ? `operator status is ${operator.status}, only active (verified) operators may take jobs`
          : "operator has no verification record",
    });
  }

  const declared = profile.capabilities.experiment_types.includes(job.experiment_type);
  const verified = verification?.competencies_verified.includes(job.experiment_type) ?? false;
  if (!declared || !verified) {
    failed.push({
      filter: "competency",
      reason: !declared
        ? `${job.experiment_type} is not among the operator's experiment types`
        : `competency for ${job.experiment_type} is not verified`,
    });
  }

  const maxBsl = effectiveMaxBsl(operator);
  if (maxBsl === null || bslRank(job.bsl) > bslRank(maxBsl)) {
    failed.push({
      filter: "bsl",
      reason:
        maxBsl === null
          ? `job requires ${job.bsl} and the operator's biosafety level is not verified`
          : `job requires ${job.bsl}, above the operator's maximum ${maxBsl}`,
    });
  }

  const approvals = verification?.material_approvals;
  const materials = [
    [
      "human_samples",
      job.needs_human_samples_approval,
      profile.compliance.human_samples_approved,
      approvals?.human_samples,
      "human samples",
    ],
    [
      "animal_samples",
      job.needs_animal_samples_approval,
      profile.compliance.animal_samples_approved,
      approvals?.animal_samples,
      "animal samples",
    ],
    [
      "hazardous_chemicals",
      job.needs_hazardous_chemicals_approval,
      profile.compliance.hazardous_chemicals_approved,
      approvals?.hazardous_chemicals,
      "hazardous chemicals",
    ],
  ] as const;
  for (const [filter, needed, declaredOk, verifiedOk, label] of materials) {
    if (needed && !(declaredOk && verifiedOk === true)) {
      failed.push({
        filter,
        reason: declaredOk
          ? `job involves ${label} and the operator's approval for them is not verified`
          : `job involves ${label} and the operator is not approved for them`,
      });
    }
  }

  if (job.equipment_required.length > 0) {
    const have = availableEquipment(profile);
    const missing = job.equipment_required.filter((name) => !have.has(normalizeName(name)));
    if (missing.length > 0) {
      failed.push({ filter: "equipment", reason: `missing required equipment: ${missing.join(", ")}` });
    } else if (verification?.equipment_verified !== true) {
      failed.push({ filter: "equipment", reason: "the operator's equipment is not verified" });
    }
  }

  const { current_capacity, max_concurrent_jobs } = profile.availability;
  if (current_capacity === "none" || operator.active_jobs >= max_concurrent_jobs) {
    failed.push({
      filter: "capacity",
      reason:
        current_capacity === "none"
          ? "operator reports no current capacity"
          : `operator has ${operator.active_jobs} active jobs of at most ${max_concurrent_jobs}`,
    });
  }

  if (isOnVacation(profile, now)) {
    failed.push({
      filter: "vacation",
      reason: `operator is on vacation on ${localDate(now, profile.identity.timezone)}`,
    });
  }

  return { qualified: failed.length === 0, failed_filters: failed };
}
