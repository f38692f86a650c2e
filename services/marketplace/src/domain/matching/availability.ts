/**
 * `operator_availability` of estimates from the number of qualified operators. The thresholds
 * are the experiments estimator's (services/experiments/src/domain/estimate/model.ts,
 * OPERATOR_AVAILABILITY_THRESHOLDS), copied because services do not import each other:
 * 8+ high, 3–7 medium, 1–2 low, 0 none.
 */
import type { JobRequirements, Operator } from "../operators/index.js";
import { rankOperators } from "./score.js";

export type OperatorAvailability = "high" | "medium" | "low" | "none";

export const OPERATOR_AVAILABILITY_THRESHOLDS = { high: 8, medium: 3, low: 1 } as const;

export function availabilityFromCount(n: number): OperatorAvailability {
  const count = Number.isFinite(n) ? Math.floor(n) : 0;
  if (count >= OPERATOR_AVAILABILITY_THRESHOLDS.high) return "high";
  if (count >= OPERATOR_AVAILABILITY_THRESHOLDS.medium) return "medium";
  if (count >= OPERATOR_AVAILABILITY_THRESHOLDS.low) return "low";
  return "none";
}

/** Availability of a job among `operators` (those passing every hard filter at `now`). */
export function availabilityForJob(
  operators: readonly Operator[],
  job: JobRequirements,
  now: Date,
): OperatorAvailability {
  return availabilityFromCount(rankOperators(operators, job, now).length);
}
