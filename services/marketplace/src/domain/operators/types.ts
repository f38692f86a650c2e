/**
 * Shared by the operator and matching modules. The enumerations (experiment types, capacity
 * levels, ...) are @petri/contracts/vocabulary's, imported from there where they are used.
 */
import type { BslLevelName } from "@petri/contracts/vocabulary";

/** Stored spelling of the biosafety levels a lab may hold: the ones Petri runs (decisions.md D19). */
export const SUPPORTED_BSL_LEVELS = ["BSL-1", "BSL-2"] as const satisfies readonly BslLevelName[];
export type SupportedBslLevel = (typeof SUPPORTED_BSL_LEVELS)[number];

/** A field-level error with a readable JSON path (same shape as the experiments intake errors). */
export interface FieldError {
  /** e.g. `commercial_terms.pricing.QPCR_EXPRESSION.max_usd`, `capabilities.instruments[0].name`. */
  path: string;
  code: "missing_required" | "invalid_value";
  message: string;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };
