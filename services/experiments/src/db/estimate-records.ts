import type { CapacityLevelName } from "@petri/contracts/vocabulary";
import type { ExperimentRow } from "./schema.js";

/** The estimate in cents and days, as stored on an experiment or computed for /estimate. */
export interface EstimateRecord {
  cost_low_cents: number;
  cost_typical_cents: number;
  cost_high_cents: number;
  turnaround_standard_days: number;
  turnaround_expedited_days: number;
  turnaround_days: number;
  cost_breakdown: {
    materials_cents: number;
    labor_cents: number;
    equipment_cents: number;
    platform_fee_cents: number;
    privacy_premium_cents: number;
  };
  operator_availability: CapacityLevelName;
}

/** The stored estimate of an experiment, or undefined for a draft too incomplete to price. */
export function estimateOf(
  row: Pick<
    ExperimentRow,
    | "cost_low_cents"
    | "cost_typical_cents"
    | "cost_high_cents"
    | "turnaround_standard_days"
    | "turnaround_expedited_days"
    | "turnaround_days"
    | "cost_breakdown"
    | "operator_availability"
  >,
): EstimateRecord | undefined {
  if (row.cost_typical_cents === null || row.cost_low_cents === null || row.cost_high_cents === null)
    return undefined;
  const b = row.cost_breakdown ?? {};
  return {
    cost_low_cents: row.cost_low_cents,
    cost_typical_cents: row.cost_typical_cents,
    cost_high_cents: row.cost_high_cents,
    turnaround_standard_days: row.turnaround_standard_days ?? 0,
    turnaround_expedited_days: row.turnaround_expedited_days ?? 0,
    turnaround_days: row.turnaround_days ?? 0,
    cost_breakdown: {
      materials_cents: b.materials_cents ?? 0,
      labor_cents: b.labor_cents ?? 0,
      equipment_cents: b.equipment_cents ?? 0,
      platform_fee_cents: b.platform_fee_cents ?? 0,
      privacy_premium_cents: b.privacy_premium_cents ?? 0,
    },
    operator_availability: row.operator_availability ?? "none",
  };
}
