/**
 * `operator_availability` from the number of qualified operators. The thresholds and the
 * mapping are shared with the experiments estimator through @petri/contracts, next to the
 * eligibility rule that decides who counts.
 */
import { availabilityFromCount } from "@petri/contracts";
import type { CapacityLevelName } from "@petri/contracts/vocabulary";
import type { JobRequirements, Operator } from "../operators/index.js";
import { rankOperators } from "./score.js";

export { OPERATOR_AVAILABILITY_THRESHOLDS, availabilityFromCount } from "@petri/contracts";

/** Availability of a job among `operators` (those passing every hard filter at `now`). */
export function availabilityForJob(
  operators: readonly Operator[],
  job: JobRequirements,
  now: Date,
): CapacityLevelName {
  return availabilityFromCount(rankOperators(operators, job, now).length);
}
