/**
 * Hard filters: may this operator take this job? (issue 5 items 2, 3 and 10)
 *
 * The rule itself is the shared one (@petri/contracts eligibilityFailures), applied to the
 * operator's eligibility snapshot (./eligibility.ts), so the job feed, lab ranking and the
 * experiments service's claim check cannot disagree. Every filter is evaluated (not
 * short-circuited) so that a 403 can name all reasons:
 * - `operator_status`: status `active` with a verification record.
 * - `competency`: the job's type is declared in the profile AND verified by staff.
 * - `bsl`: job BSL <= the lab's max, the lower of the declared and the verified level.
 * - `human_samples` / `animal_samples` / `hazardous_chemicals`: only when the job needs it;
 *   declared in the profile AND approved in the verification record.
 * - `equipment`: every required name is among the verified equipment and instrument names
 *   (trimmed, whitespace collapsed, case-insensitive).
 * - `capacity`: current_capacity is not "none" and active_jobs < max_concurrent_jobs.
 * - `vacation`: `now`, as a calendar date in the operator's timezone, is not inside any vacation
 *   (start and end inclusive).
 */
import { type EligibilityFilter, type FailedEligibilityFilter, eligibilityFailures } from "@petri/contracts";
import { eligibilityJobOf, eligibilityOf } from "./eligibility.js";
import type { JobRequirements } from "./job.js";
import type { Operator } from "./operator.js";
import type { OperatorProfile } from "./profile.js";
import { declaredEquipmentNames } from "./verification.js";

export { localDate } from "@petri/contracts";

export type HardFilter = EligibilityFilter;
export type FailedFilter = FailedEligibilityFilter;

export interface Qualification {
  qualified: boolean;
  failed_filters: FailedFilter[];
}

/** Equipment names the operator declares: equipment list plus instrument names, normalised. */
export function availableEquipment(profile: OperatorProfile): Set<string> {
  return new Set(declaredEquipmentNames(profile));
}

export function isQualifiedFor(operator: Operator, job: JobRequirements, now: Date): Qualification {
  const failed = eligibilityFailures(
    eligibilityOf(operator),
    eligibilityJobOf(job),
    operator.active_jobs,
    now,
  );
  // Only verification makes an operator active, so this cannot happen through the status
  // machine; an active record without verification must still never pass.
  if (operator.status === "active" && operator.verification === null) {
    failed.unshift({ filter: "operator_status", reason: "operator has no verification record" });
  }
  return { qualified: failed.length === 0, failed_filters: failed };
}
