/**
 * Vocabulary shared by the operator and matching modules.
 *
 * The experiment types come from @petri/contracts, the list every service shares.
 */
export { EXPERIMENT_TYPES, type ExperimentType } from "@petri/contracts";

/** Stored spelling of the supported biosafety levels (decisions.md D19). */
export const BSL_LEVELS = ["BSL-1", "BSL-2"] as const;
export type BslLevel = (typeof BSL_LEVELS)[number];

export const OPERATOR_TYPES = [
  "individual_operator",
  "academic_core",
  "commercial_cro",
  "startup_lab",
] as const;
export type OperatorType = (typeof OPERATOR_TYPES)[number];

export const INSTITUTIONAL_APPROVAL_TYPES = [
  "pi_letter",
  "core_facility_agreement",
  "commercial_contract",
  "other",
] as const;

export const CAPACITY_LEVELS = ["high", "medium", "low", "none"] as const;
export type CapacityLevel = (typeof CAPACITY_LEVELS)[number];

export const TURNAROUND_PRIORITIES = ["standard", "expedited", "urgent"] as const;
export type TurnaroundPriority = (typeof TURNAROUND_PRIORITIES)[number];

/** A field-level error with a readable JSON path (same shape as the experiments intake errors). */
export interface FieldError {
  /** e.g. `commercial_terms.pricing.QPCR_EXPRESSION.max_usd`, `capabilities.instruments[0].name`. */
  path: string;
  code: "missing_required" | "invalid_value";
  message: string;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };
