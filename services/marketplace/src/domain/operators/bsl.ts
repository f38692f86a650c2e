/**
 * Biosafety levels: input spellings (BSL1, BSL-1, bsl 1, BSL_2, 1, "2") are accepted and stored
 * as "BSL-1"/"BSL-2" (D19). BSL-3 and above is not a level an operator may declare or a job may
 * carry on Petri; parsing it yields null.
 */
import type { SupportedBslLevel } from "./types.js";

/** Numeric level (1..4) of any accepted spelling, or null. */
export function bslNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 && value <= 4 ? value : null;
  if (typeof value !== "string") return null;
  const match = /^\s*(?:bsl[\s_-]*)?([1-4])\s*$/i.exec(value);
  return match ? Number(match[1]) : null;
}

/** Canonical supported spelling ("BSL-2") or null for unknown / unsupported (BSL-3+) levels. */
export function parseBsl(value: unknown): SupportedBslLevel | null {
  const n = bslNumber(value);
  return n === 1 ? "BSL-1" : n === 2 ? "BSL-2" : null;
}

/** BSL-1 < BSL-2. */
export function bslRank(level: SupportedBslLevel): number {
  return level === "BSL-1" ? 1 : 2;
}
