/**
 * Biosafety levels.
 *
 * Stored spelling (decision): "BSL-1" / "BSL-2" — the spelling of job and template listings
 * (docs/api.md), so a stored request compares directly with a template's or an operator's level.
 * Accepted on input, case-insensitive, with or without a separator ("-", "_", " " or none):
 * BSL1, BSL-1, bsl1, "BSL 1", BSL_1, and the bare level as an integer (1) or string ("1").
 * Levels 3 and 4 are recognised (so they can be flagged and rejected); anything else is
 * `invalid_value`.
 */

import type { BslLevelName } from "@petri/contracts/vocabulary";

export const SUPPORTED_BSL_LEVELS = ["BSL-1", "BSL-2"] as const satisfies readonly BslLevelName[];
export type SupportedBslLevel = (typeof SUPPORTED_BSL_LEVELS)[number];

/** The numeric level of a BSL spelling, or null when it is not a biosafety level. */
export function bslNumber(value: unknown): number | null {
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 1 && value <= 4 ? value : null;
  }
  if (typeof value !== "string") return null;
  const match = /^\s*(?:bsl[\s_-]*)?([1-4])\s*$/i.exec(value);
  return match ? Number(match[1]) : null;
}

/** Canonical spelling ("BSL-2") of any accepted spelling, or null. */
export function normalizeBsl(value: unknown): BslLevelName | null {
  const level = bslNumber(value);
  return level === null ? null : (`BSL-${level}` as BslLevelName);
}

export function isSupportedBsl(level: BslLevelName): level is SupportedBslLevel {
  return level === "BSL-1" || level === "BSL-2";
}
