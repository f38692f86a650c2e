// A success condition's operator applied to an observed value.
import { isRange, key, str, toNumber } from "./values.js";

/** Relative tolerance for eq / neq on measured floating point values. */
export const EQ_RELATIVE_TOLERANCE = 1e-9;

function approxEqual(a: number, b: number): boolean {
  return Math.abs(a - b) <= EQ_RELATIVE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Compare an observed value with a threshold. between is inclusive (min <= v <= max); not_between
 * is its complement (v < min or v > max). eq / neq use a relative tolerance of 1e-9.
 * Returns null with a reason when the operator or threshold is invalid.
 */
export function compare(
  operator: string,
  observed: number,
  threshold: unknown,
): { ok: true; met: boolean } | { ok: false; reason: string } {
  const op = key(operator);
  if (op === "between" || op === "not_between") {
    if (!isRange(threshold)) return { ok: false, reason: `operator ${op} needs a {min, max} threshold` };
    const min = toNumber(threshold.min)!;
    const max = toNumber(threshold.max)!;
    if (min > max) return { ok: false, reason: `threshold min ${min} is greater than max ${max}` };
    const inside = observed >= min && observed <= max;
    return { ok: true, met: op === "between" ? inside : !inside };
  }
  const t = toNumber(threshold);
  if (t === null) return { ok: false, reason: `operator ${op || "(none)"} needs a numeric threshold` };
  switch (op) {
    case "gt":
      return { ok: true, met: observed > t };
    case "gte":
      return { ok: true, met: observed >= t };
    case "lt":
      return { ok: true, met: observed < t };
    case "lte":
      return { ok: true, met: observed <= t };
    case "eq":
      return { ok: true, met: approxEqual(observed, t) };
    case "neq":
      return { ok: true, met: !approxEqual(observed, t) };
    default:
      return { ok: false, reason: `unknown operator "${str(operator)}"` };
  }
}
