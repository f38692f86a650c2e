/**
 * The operator's claim-eligibility snapshot (petri.marketplace.v1.OperatorEligibility): what
 * the shared hard-filter rule (@petri/contracts eligibilityFailures) reads, flattened from the
 * profile and the staff verification record. The marketplace publishes it on every operator
 * change; the experiments service checks claims against its projection of it, and the
 * marketplace's own job feed and lab ranking apply the same rule to the same snapshot, so the
 * hard filters exist once.
 *
 * A declared capability counts only where staff verified it:
 * - experiment types: declared AND verified, in declared order;
 * - max BSL: the lower of declared and verified, "" before verification;
 * - material approvals: declared AND approved in the record;
 * - equipment: declared names that staff confirmed (the record's verified_equipment), and
 *   none unless the equipment is verified at all;
 * - capacity, concurrency, time zone and vacations: operational facts the lab states itself,
 *   effective at once.
 */
import type { EligibilityJob, EligibilitySnapshot } from "@petri/contracts";
import { bslRank } from "./bsl.js";
import { type JobRequirements, normalizeName } from "./job.js";
import type { Operator } from "./operator.js";
import type { SupportedBslLevel } from "./types.js";
import { declaredEquipmentNames } from "./verification.js";

/** The lab's effective maximum BSL (lower of declared and verified), or null if unverified. */
export function effectiveMaxBsl(
  operator: Pick<Operator, "profile" | "verification">,
): SupportedBslLevel | null {
  const verified = operator.verification?.max_bsl;
  if (verified === undefined) return null;
  const declared = operator.profile.compliance.max_bsl;
  return bslRank(declared) <= bslRank(verified) ? declared : verified;
}

export function eligibilityOf(
  operator: Pick<Operator, "status" | "profile" | "verification">,
): EligibilitySnapshot {
  const { profile, verification } = operator;
  const verifiedTypes = new Set<string>(verification?.competencies_verified ?? []);
  const approvals = verification?.material_approvals;
  const { compliance, availability } = profile;

  let equipment: string[] = [];
  if (verification?.equipment_verified === true) {
    const declared = declaredEquipmentNames(profile);
    const confirmed = verification.verified_equipment;
    if (confirmed === undefined) equipment = declared;
    else {
      const names = new Set(confirmed.map(normalizeName));
      equipment = declared.filter((name) => names.has(name));
    }
  }

  return {
    status: operator.status,
    experimentTypes: profile.capabilities.experiment_types.filter((type) => verifiedTypes.has(type)),
    maxBsl: effectiveMaxBsl(operator) ?? "",
    humanSamplesApproved: compliance.human_samples_approved && approvals?.human_samples === true,
    animalSamplesApproved: compliance.animal_samples_approved && approvals?.animal_samples === true,
    hazardousChemicalsApproved:
      compliance.hazardous_chemicals_approved && approvals?.hazardous_chemicals === true,
    equipment,
    equipmentVerified: verification?.equipment_verified === true,
    maxConcurrentJobs: availability.max_concurrent_jobs,
    currentCapacity: availability.current_capacity,
    timezone: profile.identity.timezone,
    vacations: availability.vacations.map((vacation) => ({ start: vacation.start, end: vacation.end })),
  };
}

/** The fields of a job the shared rule reads. */
export function eligibilityJobOf(job: JobRequirements): EligibilityJob {
  return {
    experimentType: job.experiment_type,
    bslLevel: job.bsl,
    needsHumanSamplesApproval: job.needs_human_samples_approval,
    needsAnimalSamplesApproval: job.needs_animal_samples_approval,
    needsHazardousChemicalsApproval: job.needs_hazardous_chemicals_approval,
    equipmentRequired: job.equipment_required,
  };
}
