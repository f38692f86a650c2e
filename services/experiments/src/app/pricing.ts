/**
 * Prices a request for storage (cents) with the operator availability of the local
 * operator_eligibility projection (operators who could take the request's job now). Shared
 * by the use cases that create, submit, patch or re-protocol an experiment and by POST
 * /estimate.
 */
import type { Kysely } from "kysely";
import type { ExperimentsDb } from "../db/schema.js";
import { estimateCents, estimateInputFrom, operatorAvailability } from "../domain/estimate/index.js";
import { jobRequirementsOf } from "../domain/jobs/index.js";
import type { EstimateRecord } from "../db/estimate-records.js";
import { countQualifiedOperators } from "./operator-availability.js";

/** The estimate of a (possibly partial) request, in cents, with operator availability at `now`. */
export async function priceRequest(
  db: Kysely<ExperimentsDb>,
  request: unknown,
  now: Date,
): Promise<EstimateRecord> {
  const input = estimateInputFrom(request);
  const cents = estimateCents(input);
  const job = jobRequirementsOf(request);
  // A partial body may name its type only through a template or a type section.
  const operators =
    input.experiment_type === null
      ? 0
      : await countQualifiedOperators(db, { ...job, experimentType: input.experiment_type }, now);
  return {
    cost_low_cents: cents.low,
    cost_typical_cents: cents.typical,
    cost_high_cents: cents.high,
    turnaround_standard_days: cents.turnaround_days.standard,
    turnaround_expedited_days: cents.turnaround_days.expedited,
    turnaround_days:
      input.priority === "standard" ? cents.turnaround_days.standard : cents.turnaround_days.expedited,
    cost_breakdown: {
      materials_cents: cents.breakdown.materials,
      labor_cents: cents.breakdown.labor,
      equipment_cents: cents.breakdown.equipment,
      platform_fee_cents: cents.breakdown.platform_fee,
      privacy_premium_cents: cents.breakdown.privacy_premium,
    },
    operator_availability: operatorAvailability(operators),
  };
}

/** The estimate columns of an experiment row. */
export function estimateColumns(estimate: EstimateRecord) {
  return {
    cost_low_cents: estimate.cost_low_cents,
    cost_typical_cents: estimate.cost_typical_cents,
    cost_high_cents: estimate.cost_high_cents,
    turnaround_standard_days: estimate.turnaround_standard_days,
    turnaround_expedited_days: estimate.turnaround_expedited_days,
    turnaround_days: estimate.turnaround_days,
    cost_breakdown: estimate.cost_breakdown,
    operator_availability: estimate.operator_availability,
  };
}
