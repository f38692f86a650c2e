/**
 * Vocabulary shared by the operator and matching modules.
 *
 * The experiment types come from @petri/contracts, the list every service shares.
 */
export { EXPERIMENT_TYPES, type ExperimentType } from "@petri/contracts";
import type {
  BslLevelName,
  CapacityLevelName,
  OperatorTypeName,
  TurnaroundPriorityName,
} from "@petri/contracts/vocabulary";

/** Stored spelling of the biosafety levels a lab may hold: the ones Petri runs (decisions.md D19). */
export const BSL_LEVELS = ["BSL-1", "BSL-2"] as const satisfies readonly BslLevelName[];
export type BslLevel = (typeof BSL_LEVELS)[number];

import {
  CAPACITY_LEVELS,
  INSTITUTIONAL_APPROVAL_TYPES,
  OPERATOR_TYPES,
  TURNAROUND_PRIORITIES,
} from "@petri/contracts/vocabulary";
export { CAPACITY_LEVELS, INSTITUTIONAL_APPROVAL_TYPES, OPERATOR_TYPES, TURNAROUND_PRIORITIES };
export type CapacityLevel = CapacityLevelName;
export type OperatorType = OperatorTypeName;
export type TurnaroundPriority = TurnaroundPriorityName;

/** A field-level error with a readable JSON path (same shape as the experiments intake errors). */
export interface FieldError {
  /** e.g. `commercial_terms.pricing.QPCR_EXPRESSION.max_usd`, `capabilities.instruments[0].name`. */
  path: string;
  code: "missing_required" | "invalid_value";
  message: string;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };
